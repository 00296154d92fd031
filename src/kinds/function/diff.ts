import type { ResolvedFunction, ResolvedPolicy } from "../../model/desired-state.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError } from "../../errors/platform-error.js";
import type { LiveState } from "../../model/live-state.js";
import type { Json } from "../../model/json.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import { changeId, existingIds, fieldsView, makeChange, movesAway } from "../../diff/change-builder.js";
import { type DiffSink, REDACTED } from "../../diff/plan-types.js";
import { lookalikeConflict } from "../../diff/lookalike-names.js";
import type { FunctionTag } from "../../model/planned-change.js";
import { envTagMode, liveCodeTag, type LiveFingerprint, readLiveFingerprint } from "../../diff/fingerprint-markers.js";
import { FUNCTION_FIELDS, type LiveFunction } from "./fields.js";

const [NAME, RUNTIME] = FUNCTION_FIELDS;

/** A live function's declarative fields (`kinds/function.ts`): the runtime is its current deployment's. */
function liveFields(fn: LiveFunction): { [key: string]: Json } {
  return fieldsView(FUNCTION_FIELDS, { name: fn.name, runtime: fn.current?.runtime });
}

function redactedNames(names: Iterable<string>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const name of [...names].sort()) out[name] = REDACTED;
  return out;
}

/** Env names after a deployment of `fn` onto a function that had `liveNames`. */
function resultingNames(fn: ResolvedFunction, liveNames: readonly string[]): string[] {
  const names = new Set(liveNames);
  for (const [name, value] of Object.entries(fn.env)) {
    if (value === "") names.delete(name);
    else names.add(name);
  }
  return [...names].sort();
}

/** `env.<NAME>` for names the deployment adds or removes. */
function envNameFields(fn: ResolvedFunction, liveNames: readonly string[]): string[] {
  const live = new Set(liveNames);
  const fields: string[] = [];
  for (const [name, value] of Object.entries(fn.env)) {
    if ((value !== "" && !live.has(name)) || (value === "" && live.has(name))) fields.push(`env.${name}`);
  }
  return fields.sort();
}

/**
 * Deployed names the policy deletes (declared `""`): removing a setting the branch has is an
 * override, never an additive change, so a forgotten `--env` file cannot delete a secret unasked.
 */
function removedEnvNames(fn: ResolvedFunction, liveNames: readonly string[]): string[] {
  const live = new Set(liveNames);
  return Object.entries(fn.env).filter(([name, value]) => value === "" && live.has(name)).map(([name]) => name).sort();
}

/** The compared env of a function: the declared names present on each side (undeclared ones are unmanaged). */
function comparedEnv(fn: ResolvedFunction, names: readonly string[]): { [key: string]: Json } {
  return redactedNames(names.filter((name) => Object.hasOwn(fn.env, name)));
}

function tagFor(tags: ReadonlyMap<string, FunctionTag>, slug: string): FunctionTag {
  const tag = tags.get(slug);
  if (tag === undefined) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `no deployment fingerprint for function "${slug}"; bundle every declared function before diffing`, {
      details: { option: "functionTags", value: slug },
    });
  }
  return tag;
}

/** What the compare table of function change detection says about an existing function. */
interface Verdict {
  deploy: boolean;
  withZip: boolean;
  fields: string[];
  reasons: string[];
}

function compareDeployment(fn: ResolvedFunction, live: LiveFunction, tag: FunctionTag, sink: DiffSink): Verdict {
  const address = `function.${fn.slug}`;
  const nameFields = envNameFields(fn, live.envNames);
  const runtimeField = live.current !== undefined && !sameFieldValue(RUNTIME, live.current.runtime, fn.runtime) ? [RUNTIME.policyKey] : [];
  // The markers read once: the values' comparison and the code tag's both need them.
  const marked = readLiveFingerprint(live.markers);
  // A value named exactly is its own field (`env.NAME`); values that may have changed are `env`.
  const values = compareEnvValues(fn, live, tag, marked);
  // The fields and words of the values are built only for a deployment: most functions of a plan have none.
  const valueFields = (): string[] => [...values.changed.map((name) => `env.${name}`), ...(values.uncertain.length > 0 ? ["env"] : [])];
  const withZip = (reason: string): Verdict => ({
    deploy: true, withZip: true, fields: ["code", ...runtimeField, ...nameFields, ...valueFields()], reasons: [[reason, ...envValueReasons(values)].join("; ")],
  });
  if (live.markers.length === 0) {
    sink.warnings.push({
      code: "UNMARKED_FUNCTION",
      message: `function ${fn.slug} carries no deployment fingerprint (deployed by other means); it is redeployed with its archive`,
      address,
    });
    return withZip("the deployed function has no fingerprint, so its code cannot be compared");
  }
  if (live.current === undefined) return withZip("the function has no deployment");
  if (live.current.status === "failed") {
    const error = live.current.error ?? "no error text";
    return withZip(`the current deployment ${live.current.id} failed (${error}); it is redeployed with its archive`);
  }
  if ((marked.main?.codeTag ?? marked.legacy?.codeTag) !== tag.codeTag) return withZip("the function's code changed");
  if (values.differs || runtimeField.length > 0 || nameFields.length > 0) {
    const named = [...runtimeField, ...nameFields];
    const why = [...(named.length > 0 ? [`${named.join(", ")} changed`] : []), ...envValueReasons(values)];
    const fields = [...named, ...valueFields()];
    return { deploy: true, withZip: false, fields: fields.length > 0 ? fields : ["env"], reasons: [`${why.join("; ") || "the env fingerprint differs"}; the archive is kept`] };
  }
  if (live.current.status === "pending" || live.current.status === "building") {
    sink.warnings.push({
      code: "DEPLOYMENT_IN_PROGRESS",
      message: `function ${fn.slug}: deployment ${live.current.id} of the same version is still ${live.current.status}`,
      address,
    });
  }
  return { deploy: false, withZip: false, fields: [], reasons: [] };
}

/**
 * Diffs declared functions: create, redeploy (with or without the archive, by fingerprint) and display
 * name; lists deployed env names the policy omits as unmanaged.
 */
export function diffFunctions(desired: ResolvedPolicy, live: LiveState, tags: ReadonlyMap<string, FunctionTag>, sink: DiffSink): void {
  const byslug = new Map((live.functions ?? []).map((f) => [f.slug, f]));
  for (const fn of desired.functions) {
    const tag = tagFor(tags, fn.slug);
    const current = byslug.get(fn.slug);
    const address = `function.${fn.slug}`;
    // Built only for a change: a function the plan leaves alone needs no view of it.
    const after = (): { [key: string]: Json } => ({ ...fieldsView(FUNCTION_FIELDS, fn), codeTag: tag.codeTag, env: comparedEnv(fn, resultingNames(fn, current?.envNames ?? [])) });
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address,
          kind: "function",
          action: "create",
          class: "additive",
          fields: ["*"],
          before: null,
          after: after(),
          reason: `function ${fn.slug} is declared and not deployed on the branch`,
          op: {
            type: "function-deploy", slug: fn.slug, deploy: true, withZip: true, rename: fn.name !== fn.slug,
            ...(tag.markers ? { markers: tag.markers } : {}), staleMarkers: [], ...(tag.envTag ? { envTag: tag.envTag } : {}), zipSha256: tag.zipSha256,
          },
          planned: { name: fn.name, runtime: fn.runtime },
        }),
      );
      continue;
    }
    for (const name of current.envNames) {
      if (!Object.hasOwn(fn.env, name)) {
        sink.unmanaged.push({
          address: `${address}.env.${name}`,
          kind: "env",
          identifier: name,
          reason: `deployed env variable ${name} of function ${fn.slug} is not declared; it is kept (write "" in env to delete it)`,
        });
      }
    }
    const verdict = compareDeployment(fn, current, tag, sink);
    const rename = !sameFieldValue(NAME, current.name, fn.name);
    if (!verdict.deploy && !rename) continue;
    const fields = [...verdict.fields, ...(rename ? [NAME.policyKey] : [])];
    const removed = verdict.deploy ? removedEnvNames(fn, current.envNames) : [];
    const reasons = [
      ...verdict.reasons,
      ...(rename ? [`the display name changes from "${current.name}" to "${fn.name}"`] : []),
      ...(removed.length > 0 ? [`it deletes the deployed env ${removed.length === 1 ? "variable" : "variables"} ${removed.join(", ")} (declared ""), an override that needs updateExisting (CLI: --update-existing)`] : []),
    ];
    sink.changes.push(
      makeChange({
        address,
        kind: "function",
        action: "update",
        class: removed.length > 0 ? "override" : "additive",
        fields,
        before: { ...liveFields(current), codeTag: liveCodeTag(current.markers) ?? null, env: comparedEnv(fn, current.envNames) },
        after: after(),
        reason: reasons.join("; "),
        op: {
          type: "function-deploy", slug: fn.slug, deploy: verdict.deploy, withZip: verdict.withZip, rename,
          ...(tag.markers ? { markers: tag.markers } : {}), staleMarkers: current.markers.filter((m) => !(tag.markers ?? []).includes(m)),
          ...(tag.envTag ? { envTag: tag.envTag } : {}), zipSha256: tag.zipSha256,
        },
        planned: { name: fn.name, runtime: fn.runtime },
      }),
    );
  }
}

/**
 * Undeclared functions: deleted under `prune.functions` when owned by this branch (after the
 * changes moving or deleting their triggers and hostnames), else unmanaged. A function still
 * used by a kept trigger or hostname is a `STILL_REFERENCED` conflict.
 */
export function pruneFunctions(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  const declared = new Set(desired.functions.map((f) => f.slug));
  const inheritedSlugs = new Set(live.parentFunctionSlugs ?? []);
  const planned = new Set(sink.changes.map((c) => c.change.id));
  for (const fn of live.functions ?? []) {
    if (declared.has(fn.slug)) continue;
    const address = `function.${fn.slug}`;
    if (inheritedSlugs.has(fn.slug)) {
      sink.unmanaged.push({ address, kind: "function", identifier: fn.slug, inherited: true, reason: `function ${fn.slug} is inherited from the parent branch; it is never pruned` });
      continue;
    }
    if (!desired.prune.functions) {
      sink.unmanaged.push({ address, kind: "function", identifier: fn.slug, reason: `function ${fn.slug} is not declared (set prune.functions to delete it)` });
      continue;
    }
    const lookalike = lookalikeConflict("function", fn.slug, declared);
    if (lookalike !== undefined) {
      sink.conflicts.push(lookalike);
      continue;
    }
    const triggers = (live.triggers ?? []).filter((t) => t.function === fn.slug);
    const keptTriggers = triggers.filter((t) => !planned.has(changeId("delete", `trigger.${t.name}`)) && !movesAway(sink, `trigger.${t.name}`, "function"));
    const domains = (live.customDomains ?? []).filter((d) => d.entityType === "function" && d.entityId === fn.slug);
    const keptDomains = domains.filter((d) => !planned.has(changeId("delete", `domain.${d.domain}`)) && !planned.has(changeId("replace", `domain.${d.domain}`)));
    if (keptTriggers.length > 0 || keptDomains.length > 0) {
      const users = [...keptTriggers.map((t) => `trigger ${t.name}`), ...keptDomains.map((d) => `hostname ${d.domain}`)];
      sink.conflicts.push({
        kind: "function", identifier: fn.slug, field: "*", current: users, desired: null, blocking: true, code: "STILL_REFERENCED",
        reason: `function ${fn.slug} would be pruned but is still used by ${users.join(", ")}; declare the function or prune those too`,
      });
      continue;
    }
    const deps = existingIds(sink.changes, [
      ...triggers.flatMap((t) => [changeId("delete", `trigger.${t.name}`), changeId("update", `trigger.${t.name}`)]),
      ...domains.flatMap((d) => [changeId("delete", `domain.${d.domain}`), changeId("replace", `domain.${d.domain}`)]),
    ]);
    sink.changes.push(
      makeChange({
        address, kind: "function", action: "delete", class: "override", fields: ["*"],
        before: { ...liveFields(fn), codeTag: liveCodeTag(fn.markers) ?? null, env: redactedNames(fn.envNames) },
        after: null,
        reason: `function ${fn.slug} is not declared and prune.functions is set`,
        dependsOn: deps,
        op: { type: "function-delete", slug: fn.slug },
        planned: {},
      }),
    );
  }
}

/*
 * Which env values of an existing function a deployment changes, read from the fingerprint
 * markers alone: the platform returns env names, never values. Pure.
 *
 * Under one fingerprint key on both sides the per-variable tags name exactly the variables whose
 * value changed. Otherwise a differing env tag says only that some value (or the set of declared
 * names) differs, and with no comparable marker nothing can be said: the declared names the branch
 * already has are then the ones whose value "may have" changed.
 */

/** What the markers say about the values of the declared names the branch already has. */
export interface EnvValueVerdict {
  /** The fingerprints differ: a deployment is due even when names, runtime and code are equal. */
  differs: boolean;
  /** Names whose value changed, known exactly (keyed on both sides, with the same key). */
  changed: string[];
  /** Names whose value may have changed: the fingerprint cannot say which, or nothing compares. */
  uncertain: string[];
  /** Why {@link uncertain} is not exact, said in the change's reason. */
  why?: string;
  /** The fingerprint key changed (or was set or unset): said even when no kept name is involved. */
  keyChanged?: boolean;
}

/** Declared names with a value that the branch already has: the names whose value may change. */
export function keptEnvNames(fn: ResolvedFunction, liveNames: readonly string[]): string[] {
  const live = new Set(liveNames);
  return Object.entries(fn.env)
    .filter(([name, value]) => value !== "" && live.has(name))
    .map(([name]) => name)
    .sort();
}

const SAME: EnvValueVerdict = { differs: false, changed: [], uncertain: [] };
const NO_VALUES = "the platform keeps no values to compare";

function modeChange(live: string, ours: string): string {
  if (live.startsWith("EK") && ours.startsWith("EK")) return "the fingerprint key (SVC_FINGERPRINT_KEY) changed since the last deployment, so no value can be compared";
  if (ours.startsWith("EK")) return "the last deployment was fingerprinted without a key and SVC_FINGERPRINT_KEY is set now, so no value can be compared";
  return "the last deployment was fingerprinted with a key and SVC_FINGERPRINT_KEY is not set now, so no value can be compared";
}

/** Compares the declared env of `fn` with the live function's markers (`marked`: as read from them) through `tag`. */
export function compareEnvValues(fn: ResolvedFunction, live: LiveFunction, tag: FunctionTag, marked: LiveFingerprint = readLiveFingerprint(live.markers)): EnvValueVerdict {
  // Listed only when the fingerprints differ: a function whose env is unchanged needs no names.
  const kept = (): string[] => keptEnvNames(fn, live.envNames);
  const unknown = (why: string): EnvValueVerdict => ({ differs: true, changed: [], uncertain: kept(), why });
  if (marked.main !== undefined && tag.envTag !== undefined) {
    if (marked.main.envTag === tag.envTag) return SAME;
    const liveMode = envTagMode(marked.main.envTag);
    const ourMode = envTagMode(tag.envTag);
    if (liveMode !== ourMode) return { ...unknown(modeChange(liveMode, ourMode)), keyChanged: true };
    const varTags = tag.varTags;
    if (varTags === undefined) return unknown("without SVC_FINGERPRINT_KEY one fingerprint covers all values together");
    const names = kept();
    if (names.length > 0 && marked.varTags.size === 0) return unknown(`${NO_VALUES}, and the last deployment carries no per-variable fingerprint`);
    const changed = names.filter((name) => {
      const own = varTags[name];
      return own === undefined || !marked.varTags.has(own);
    });
    return { differs: true, changed, uncertain: [] };
  }
  if (marked.legacy !== undefined && marked.legacy.codeTag === tag.codeTag && tag.legacyConfigTag !== undefined) {
    if (marked.legacy.configTag === tag.legacyConfigTag) return SAME;
    const letters = [marked.legacy.configTag[0], tag.legacyConfigTag[0]];
    const modeChanged = /^[KH]$/.test(letters[0] ?? "") && letters[0] !== letters[1];
    if (modeChanged) return { ...unknown(`${NO_VALUES}; the fingerprint mode changed (SVC_FINGERPRINT_KEY set or unset)`), keyChanged: true };
    return unknown(`${NO_VALUES}, and an older svc-config fingerprinted all values together`);
  }
  return unknown(NO_VALUES);
}

/** The reason's words for the values: `the value of A, B changed`, or what may have changed and why. */
export function envValueReasons(verdict: EnvValueVerdict): string[] {
  const out: string[] = [];
  if (verdict.changed.length > 0) out.push(`the value of ${verdict.changed.join(", ")} changed`);
  if (verdict.uncertain.length > 0) {
    const which = verdict.uncertain.length === 1 ? "" : "one or more of ";
    out.push(`the value of ${which}${verdict.uncertain.join(", ")} may have changed (${verdict.why ?? NO_VALUES})`);
  } else if (verdict.keyChanged === true && verdict.why !== undefined) out.push(verdict.why);
  return out;
}
