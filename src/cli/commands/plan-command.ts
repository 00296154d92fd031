import { LIBRARY_VERSION } from "../../version.js";
import type { CommandContext } from "../context.js";
import type { EnginePort } from "../engine-port.js";
import type { EnvOrigins } from "../env-files.js";
import { checkLocalWrites, localWrite, writeLocalFile, type LocalWrite } from "../files.js";
import type { PushResult } from "../../model/plan.js";
import type { TargetFlags } from "../target.js";
import { renderPlanGraph, type GraphFormat } from "../views/graph.js";
import { buildPlanDocument, stringifyDocument } from "../views/json-plan.js";
import { MARKDOWN_BUDGET, renderPlanMarkdown } from "../views/markdown-plan.js";
import { printedDocument } from "../views/outside-text.js";
import { declaredDatabasesOf } from "../branch-database.js";
import { renderPlanText } from "../views/text-plan.js";
import { hasBlockingCheck } from "../views/checks-view.js";
import { hasBlockingAnywhere, hasPendingOutside, planNotes } from "../views/plan-notes.js";
import { summaryLine, type ViewTarget } from "../views/view-model.js";
import { checksOption, declaredFunctionEnvs, declaredFunctionEnvsBySlug, echoInfo, loadEnv, loadPolicyWithChecks, printEcho, resolveTarget, startTargetReads, viewTarget, type LoadedPolicy, type PolicyFlags, type Target } from "./target-setup.js";
import { isFingerprintKey, parseFingerprintKey, prefetchKeyedEnvTags, prefetchValueKeys } from "../../engine/function-fingerprint.js";
import { bundleCacheOption, engineTuning } from "../engine-tuning.js";
import type { BundleHeadStart } from "../../engine/bundle-head-start.js";

/** Flags of `svc config plan`. */
export interface PlanFlags extends PolicyFlags, TargetFlags {
  out?: string;
  json?: boolean;
  markdown?: boolean;
  detailedExitcode?: boolean;
  concurrency?: number;
  /** `--target` patterns (repeatable). */
  target?: string[];
  /** `--exclude` patterns (repeatable). */
  exclude?: string[];
  /** `--verify`: apply the plan to a local replica and plan again (plan only). */
  verify?: boolean;
  /** `--graph dot|mermaid`: print the dependency graph instead of the plan. */
  graph?: GraphFormat;
  /** commander's `--no-cache` sets this to false. */
  cache?: boolean;
  /** `--schema-diff` (with `--markdown`): the branch's schema diff against its parent as a section. */
  schemaDiff?: boolean;
}

/** The engine's `targets` / `exclude` options for `--target` / `--exclude`. */
export function selectionOptions(flags: Pick<PlanFlags, "target" | "exclude">): { targets?: string[]; exclude?: string[] } {
  return { ...(flags.target === undefined ? {} : { targets: flags.target }), ...(flags.exclude === undefined ? {} : { exclude: flags.exclude }) };
}

/** Everything a plan run produced, for `plan` itself and for `apply`. */
export interface PlannedRun {
  engine: EnginePort;
  policy: LoadedPolicy;
  target: Target;
  view: ViewTarget;
  result: PushResult;
  /**
   * Resolves once the bundle cache entries of the plan's builds are written (never rejects): the
   * plan took its archives before, so the command waits for it before it ends, and meanwhile
   * shows, gates and applies the plan (an archive not yet written is sent from memory).
   */
  cacheWritten?: Promise<void>;
}

/** What a command loaded before it plans: its `--env` files' origins and the policy with its checks. */
export interface LoadedInputs {
  origins: EnvOrigins;
  policy: LoadedPolicy;
}

/**
 * Steps shared by plan and apply: load the `--env` files and the policy (unless the command already
 * loaded both: the files read once, so the echo still says which file each credential came from;
 * the checks loaded once, said once), resolve and echo the target, then a dry-run `plan` with
 * progress on stderr.
 */
export async function computePlan(ctx: CommandContext, flags: PlanFlags, compactEcho: boolean, loaded?: LoadedInputs): Promise<PlannedRun> {
  const engine = await ctx.engine();
  const origins = loaded?.origins ?? loadEnv(ctx, flags);
  // The target's reads wait on the network while svc.ts is evaluated; what is reported, and in what order, does not change.
  // Keyed plans only: a keyless plan waits for its derivations, which start once the policy is loaded, and an earlier
  // target only moves the plan's own work onto the cores they run on.
  const keyed = engineTuning(ctx.io, flags).fingerprintKey !== undefined;
  const early = loaded?.policy === undefined && keyed ? startTargetReads(ctx, engine, flags, origins) : undefined;
  let policy: LoadedPolicy;
  try {
    policy = loaded?.policy ?? (await loadPolicyWithChecks(ctx, engine, flags));
  } catch (err) {
    early?.discard();
    throw err;
  }
  // Cold builds start now, overlapping the target's reads and the first read wave; the plan takes them, or cancels them.
  const headStart = await startBundles(ctx, flags, policy);
  try {
    const target = await resolveTarget(ctx, engine, flags, origins, (creds) => prefetchFingerprintKeys(ctx, flags, policy, creds.projectId.value), early);
    printEcho(ctx, echoInfo(target, policy), compactEcho);
    const planned = await planAgain(ctx, { engine, policy, target }, flags, headStart);
    return headStart === undefined ? planned : { ...planned, cacheWritten: headStart.written() };
  } catch (err) {
    // Reported once nothing of the head start is running (its outcome is never reported).
    await headStart?.cancel();
    throw err;
  }
}

/** The plan's builds started from the loaded policy with the plan's bundling options (`engine/bundle-head-start.ts`). */
async function startBundles(ctx: CommandContext, flags: PlanFlags, policy: LoadedPolicy): Promise<BundleHeadStart | undefined> {
  const { startBundleHeadStart } = await import("../../engine/bundle-head-start.js");
  return startBundleHeadStart(policy.config, { ...engineTuning(ctx.io, flags), ...bundleCacheOption(flags, policy.resolvedPath), signal: ctx.signal });
}

/**
 * Without `SVC_FINGERPRINT_KEY`, starts the hardened derivations of the policy's env values while
 * the target and the branch are read (about 0.1 s of CPU each, off the main thread): the plan
 * would otherwise start them only once it has read the live functions. Nothing waits for them
 * unless the plan needs them. With it, computes the keyed env and per-variable tags in that wait
 * (the main thread is idle there; after the live functions are read it is not). A key the engine
 * will refuse is left for the engine to report.
 */
function prefetchFingerprintKeys(ctx: CommandContext, flags: PlanFlags, policy: LoadedPolicy, projectId: string): void {
  const key = engineTuning(ctx.io, flags).fingerprintKey;
  if (key === undefined) prefetchValueKeys(projectId, declaredFunctionEnvs(policy.config));
  else if (isFingerprintKey(key)) prefetchKeyedEnvTags(projectId, parseFingerprintKey(key), declaredFunctionEnvsBySlug(policy.config));
}

/**
 * A dry-run `plan` of an already loaded policy against an already resolved target, with progress
 * on stderr: the second half of {@link computePlan}, and how apply re-plans a branch that moved
 * after its plan was shown (the same policy evaluation and bundles, the branch read afresh).
 */
export async function planAgain(ctx: CommandContext, run: Omit<PlannedRun, "result" | "view">, flags: PlanFlags, headStart?: BundleHeadStart): Promise<PlannedRun> {
  const { engine, policy, target } = run;
  const { planToShow } = await import("../../engine/shown-plan.js");
  const progress = ctx.progress();
  try {
    // `plan`, keeping what the result was computed from for `applyShownPlan` (apply-command.ts).
    const result = await planToShow(policy.config, {
      projectId: target.project.id,
      branchId: target.branch.id,
      api: target.api,
      allowDataLoss: true,
      signal: ctx.signal,
      onEvent: progress.onEvent,
      ...engineTuning(ctx.io, flags),
      ...bundleCacheOption(flags, policy.resolvedPath),
      ...selectionOptions(flags),
      ...checksOption(policy),
      ...(flags.verify === true ? { verify: true } : {}),
    }, headStart);
    return { engine, policy, target, view: viewTarget(target, policy.relativePath), result };
  } finally {
    progress.stop();
  }
}

/** Writes the saved plan (engine `toSavedPlan`), pretty-printed, atomically, mode 0600. */
function writeSavedPlan(ctx: CommandContext, engine: EnginePort, result: PushResult, out: LocalWrite): void {
  const saved = engine.toSavedPlan(result);
  writeLocalFile(out, ctx.scrubber.scrub(`${JSON.stringify(saved, null, 2)}\n`), { mode: 0o600 });
  ctx.info([`Saved plan to ${out.display}`]);
}

/**
 * The schema diff section of `plan --markdown --schema-diff`: the branch against its parent, in the
 * database `branch connection-string` would pick; none on the default branch (it has no parent to
 * compare with), which stderr says.
 */
async function schemaDiffSection(ctx: CommandContext, run: PlannedRun): Promise<string | undefined> {
  const { branch, api, project } = run.target;
  if (branch.default) {
    ctx.info([`--schema-diff: ${branch.name} is the default branch; the schema diff is shown on preview branches only.`]);
    return undefined;
  }
  const { readSchemaDiff } = await import("./branch-diff.js");
  const { renderSchemaDiffMarkdown } = await import("../views/schema-diff.js");
  return renderSchemaDiffMarkdown(await readSchemaDiff({ api, projectId: project.id, branch, declaredDatabases: declaredDatabasesOf(run.policy.config) }));
}

/**
 * `svc config plan`: prints the plan as text, JSON or Markdown. Exits 0, or with
 * `--detailed-exitcode` 0 for no changes, 2 for changes, 3 for blocking conflicts and 8 when a
 * mandatory check failed (3 wins over 8, 8 over 2).
 */
export async function runPlan(ctx: CommandContext, flags: PlanFlags): Promise<number> {
  const compact = flags.json === true || flags.markdown === true || flags.graph !== undefined;
  const out = flags.out === undefined ? undefined : localWrite(ctx.io.cwd, "--out", flags.out);
  await checkLocalWrites(ctx.io.cwd, out === undefined ? [] : [out], flags.config);
  const run = await computePlan(ctx, flags, compact);
  try {
    return await showPlan(ctx, run, flags, out);
  } finally {
    await run.cacheWritten;
  }
}

/** The plan's output (saved plan, graph, JSON, Markdown or text) and `runPlan`'s exit code. */
async function showPlan(ctx: CommandContext, run: PlannedRun, flags: PlanFlags, out: LocalWrite | undefined): Promise<number> {
  if (out !== undefined) writeSavedPlan(ctx, run.engine, run.result, out);
  if (flags.graph !== undefined) {
    ctx.out(renderPlanGraph(run.result, flags.graph));
  } else if (flags.json === true) {
    ctx.out(stringifyDocument(buildPlanDocument({ command: "plan", cliVersion: LIBRARY_VERSION, target: run.view, result: run.result })));
    ctx.documentPrinted = true;
  } else if (flags.markdown === true) {
    const section = flags.schemaDiff === true ? await schemaDiffSection(ctx, run) : undefined;
    const markdown = renderPlanMarkdown(run.result, run.view, MARKDOWN_BUDGET - (section?.length ?? 0));
    ctx.out(section === undefined ? markdown : printedDocument(`${markdown}\n${section}\n`));
  } else if (ctx.quiet) {
    ctx.out([summaryLine(run.result), ...planNotes(run.result)]);
  } else {
    ctx.out(renderPlanText(run.result, ctx.styleFor("stdout"), { branchProtected: run.view.branchProtected, configPath: run.view.configPath }));
  }
  if (flags.detailedExitcode !== true) return 0;
  if (hasBlockingAnywhere(run.result)) return 3;
  if (hasBlockingCheck(run.result)) return 8;
  return run.result.changes.length > 0 || hasPendingOutside(run.result) ? 2 : 0;
}

