/**
 * `resolvePolicy` (docs/policy.md#the-branch-closure): the static part plus one branch's tuning, validated, with
 * every default filled and collections sorted. Pure: no network, no file reads, no clock.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { ConfigValidationError, ErrorCode, PlatformError, type ConfigValidationContext } from "../errors/index.js";
import { evaluateBranch, resolveTunings } from "./evaluate-branch.js";
import { evaluationTimeoutOf, guardedClosure } from "./evaluation-guard.js";
import { frozenData } from "./snapshot.js";
import { ownRecord } from "../model/own-record.js";
import type { PolicyConfig } from "./policy-types.js";
import { policyFileOf } from "./policy-origin.js";
import type { BranchTarget, ResolvedPolicy } from "../model/desired-state.js";
import type { ParsedPolicy } from "./schemas/policy.js";
import type { PolicyKinds } from "./policy-kinds.js";
import type { KindResolvedFields } from "../kinds/index.js";
import { compareCodePoints } from "./sort.js";
import { readStaticPolicy } from "./validate-static.js";

/** Options of `resolvePolicy`. */
export interface ResolvePolicyOptions {
  /**
   * Absolute directory that relative function sources are resolved against.
   * @default the directory of the file `loadConfigFromFile` loaded the policy from
   */
  baseDir?: string;
}

/**
 * `resolvePolicy` (`kinds/list.ts` binds it to the registry's kinds) with the static parts and the
 * branch-tuning keys of `kinds`: each kind's fields of the resolved policy come from its static
 * keys or its tuning keys (functions: both), its branch settings and its slice (`kinds`, absent
 * when none declares anything) from its tuning keys.
 */
export function resolvePolicyWith(kinds: PolicyKinds, config: PolicyConfig, target: BranchTarget, given: ResolvePolicyOptions = {}): ResolvedPolicy {
  const options: ResolvePolicyOptions = ownRecord(given);
  const file = typeof config === "object" && config !== null ? policyFileOf(config) : undefined;
  const context: ConfigValidationContext = file === undefined ? {} : { file };
  const { parsed } = readStaticPolicy(kinds, config, context);
  const baseDir = baseDirOf(options, file);
  const staticIssues = kinds.policies.flatMap((kind) => kind.check?.(parsed, { baseDir }) ?? []);
  if (staticIssues.length > 0) throw new ConfigValidationError(staticIssues, context);

  const frozenTarget = Object.freeze(ownRecord(target) as unknown as BranchTarget);
  const branchContext = { ...context, branchName: frozenTarget.name };
  const closure = parsed.branch === undefined ? undefined : guardedClosure(parsed.branch, { file, timeoutMs: evaluationTimeoutOf(config as object) });
  const evaluated = evaluateBranch(closure, frozenTarget, parsed, branchContext, kinds.tunings);
  const tuned = resolveTunings(kinds.tunings, evaluated, { target: frozenTarget, policy: parsed, baseDir });
  if (tuned.issues.length > 0) throw new ConfigValidationError(tuned.issues, branchContext);

  return frozenData({
    target: frozenTarget,
    baseDir,
    ...staticFields(kinds, parsed),
    ...tuned.fields,
    ...pruneFlags(kinds, parsed),
    branch: tuned.branch,
    deprecatedKeys: deprecatedKeys(kinds, parsed, tuned.deprecatedKeys),
    ...(tuned.kinds === undefined ? {} : { kinds: tuned.kinds }),
  } satisfies ResolvedPolicy);
}

/** The kinds' fields of the resolved policy from their static keys (a key absent at the top level is read from its deprecated home). */
function staticFields(kinds: PolicyKinds, parsed: ParsedPolicy): KindResolvedFields {
  const fields = {};
  for (const kind of kinds.policies) {
    if (kind.resolve === undefined) continue;
    const homes = kind.preview ?? {};
    const home = (key: string): unknown => (Object.hasOwn(homes, key) && parsed.preview !== undefined && Object.hasOwn(parsed.preview, key) ? parsed.preview[key] : undefined);
    const values = Object.fromEntries(Object.keys(kind.keys ?? {}).map((key) => [key, (Object.hasOwn(parsed, key) ? parsed[key] : undefined) ?? home(key)]));
    Object.assign(fields, kind.resolve(values));
  }
  return fields as KindResolvedFields;
}

/** Each prune flag, `false` unless set, and whether the policy states it (`prune: false` states those `prune: true` sets). */
function pruneFlags(kinds: PolicyKinds, parsed: ParsedPolicy): Pick<ResolvedPolicy, "prune" | "pruneStated"> {
  const flags = kinds.pruneFlags.map(({ flag }) => flag);
  return {
    prune: Object.fromEntries(flags.map((flag) => [flag, parsed.prune?.[flag] ?? false])) as ResolvedPolicy["prune"],
    pruneStated: Object.fromEntries(flags.map((flag) => [flag, parsed.prune?.[flag] !== undefined])) as ResolvedPolicy["pruneStated"],
  };
}

function baseDirOf(options: ResolvePolicyOptions, file: string | undefined): string | null {
  if (options.baseDir !== undefined) {
    if (typeof options.baseDir !== "string" || !isAbsolute(options.baseDir)) {
      throw new PlatformError(
        ErrorCode.INVALID_OPTIONS,
        `resolvePolicy: baseDir must be an absolute directory (got ${JSON.stringify(options.baseDir)}); pass e.g. path.resolve(dir)`,
        { details: { option: "baseDir", value: String(options.baseDir) } },
      );
    }
    return resolve(options.baseDir);
  }
  return file === undefined ? null : dirname(file);
}

function deprecatedKeys(kinds: PolicyKinds, parsed: ParsedPolicy, tuned: readonly string[]): string[] {
  const keys = kinds.previewKeys.filter((key) => parsed.preview?.[key] !== undefined).map((key) => `preview.${key}`);
  return [...keys, ...tuned].sort(compareCodePoints);
}
