import { withMemory } from "./run-archives.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { resolvePolicy } from "../kinds/list.js";
import type { BranchTarget, ResolvedPolicy } from "../model/desired-state.js";
import { type AdaptiveLimit, createAdaptiveLimit, THROTTLE_STATUSES } from "../apply/adaptive-limit.js";
import { createBuildWatcher } from "../apply/build-watcher.js";
import { executePlan } from "../apply/execute-plan.js";
import { observedApi } from "../api/request-observer.js";
import type { ApiFunctionBuild, BranchRef, PlatformApi } from "../api/platform-api.js";
import type { ExecutionContext } from "../apply/execution-context.js";
import { KIND_EXPECTED_WAITS, KIND_HANDLERS } from "../kinds/modules.js";
import { withArchiveBytes } from "../bundle/archive-reads.js";
import { withApiEvents } from "./events.js";
import { gatePlan } from "../apply/gate-plan.js";
import { ApplyFailedError, CancelledError, PushAbortedError, PushConflictError } from "../errors/engine-errors.js";
import { CheckFailedError } from "../errors/check-errors.js";
import type { Check } from "../model/checks.js";
import { blockingChecks, runChecks } from "./checks-run.js";
import type { PushResult } from "../model/plan.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import { buildResult } from "./build-result.js";
import { digestInSlices } from "./change-digests.js";
import { type ApplyOptions, type OperationRuntime, type PlanOptions, type PushConfigOptions, ownOptions, prepareRuntime } from "./options.js";
import { type PreparedPlan, preparePlan } from "./prepare-plan.js";
import type { BaseLiveState } from "../inspect/read-live-state.js";
import { readSelection, selectPrepared } from "./select-changes.js";
import { verifyPrepared, warmReplica } from "./verify-plan.js";
import type { ReplicaPool } from "./replica-pool.js";
import type { SharedArchives } from "./shared-archives.js";
import type { BundleHeadStart } from "./bundle-head-start.js";

/** The closure's input for an existing branch; `exists` as the caller says. */
export function targetOf(base: BaseLiveState, exists: boolean): BranchTarget {
  return Object.freeze({ ...base.target, exists });
}

function abortableSleep(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
  return (ms) => new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Marker names of functions whose plan deferred their env tag, memoised per slug. Every deferred
 * one starts deriving as soon as execution begins, so the derivations overlap the changes that
 * run first; each upload waits only for its own.
 */
function deferredMarkers(rt: OperationRuntime, prepared: PreparedPlan): (slug: string) => Promise<string[]> {
  const functions = new Map(prepared.desired.functions.map((fn) => [fn.slug, fn]));
  const markers = new Map<string, Promise<string[]>>();
  const markersOf = (slug: string): Promise<string[]> => {
    let derived = markers.get(slug);
    if (derived === undefined) {
      const fn = functions.get(slug);
      const archive = prepared.archives.get(slug);
      derived = fn === undefined || archive === undefined
        ? Promise.reject(new PlatformError(ErrorCode.BUNDLE_FAILED, `function ${slug} has no archive; bundle it before applying`, { details: { slug } }))
        : rt.fingerprints.tag({ slug, zipSha256: archive.zipSha256, runtime: fn.runtime, env: fn.env }).then((tag) => tag.markers);
      derived.catch(() => undefined); // reported by the change that awaits it
      markers.set(slug, derived);
    }
    return derived;
  };
  for (const { op } of prepared.diff.changes) if (op.type === "function-deploy" && op.deploy && op.markers === undefined) void markersOf(op.slug);
  return markersOf;
}

/** Every function's build state: read for the build only when the adapter can, else the whole functions list. */
function listFunctionBuilds(api: PlatformApi, ref: BranchRef): Promise<readonly ApiFunctionBuild[]> {
  return api.listFunctionBuilds !== undefined ? api.listFunctionBuilds(ref) : api.listFunctions(ref);
}

/** The build watcher's poll confirms builds every dependent change waits for: it takes the next free slot before any change's request. */
const BUILD_POLL_PRIORITY = Number.POSITIVE_INFINITY;

/** Each upload's archive bytes, read under the process's budget when sent (see `bundle/archive-reads.ts`). */
function archiveSender(archives: PreparedPlan["archives"]): ExecutionContext["withArchive"] {
  return (slug, send) => {
    const archive = archives.get(slug);
    if (archive === undefined) return Promise.reject(new PlatformError(ErrorCode.BUNDLE_FAILED, `function ${slug} has no archive; bundle it before applying`, { details: { slug } }));
    return withArchiveBytes(archive, send);
  };
}

/** The executor's context for a prepared plan. */
export function executionContext(rt: OperationRuntime, prepared: PreparedPlan, request: AdaptiveLimit = createAdaptiveLimit({ initial: rt.concurrency, max: rt.maxConcurrency })): ExecutionContext {
  const sleep = abortableSleep(rt.signal);
  const signal = rt.signal ? { signal: rt.signal } : {};
  const ref = { projectId: prepared.ids.projectId, branchId: prepared.ids.branchId };
  return {
    api: rt.api, ...ref, branchName: prepared.base.branch.name,
    desired: prepared.desired, withArchive: archiveSender(prepared.archives), request, emit: rt.emit, timing: rt.timing, sleep, now: Date.now, ...signal,
    functionMarkers: deferredMarkers(rt, prepared), handlers: KIND_HANDLERS, expectedWaits: KIND_EXPECTED_WAITS,
    builds: createBuildWatcher({ listFunctions: () => request(() => listFunctionBuilds(rt.api, ref), BUILD_POLL_PRIORITY), sleep, now: Date.now, timing: rt.timing, ...signal }),
  };
}

/** Gate flags of a push. */
export interface GateFlags {
  dryRun: boolean;
  updateExisting: boolean;
  allowProtectedBranch: boolean;
  confirm?: PushConfigOptions["confirm"];
  /** Run over the plan before any gate decision; see `PlanOptions.checks`. */
  checks?: readonly Check[];
}

/** Runs the checks over a prepared plan; `undefined` without checks. */
async function checkPrepared(prepared: PreparedPlan, checks: readonly Check[] | undefined): Promise<PushResult["checks"]> {
  if (checks === undefined) return undefined;
  const { base, desired, live, diff } = prepared;
  return runChecks(checks, {
    target: { projectId: base.project.id, projectName: base.project.name, branchId: base.branch.id, branchName: base.branch.name, isDefault: base.branch.isDefault, protected: base.branch.protected, exists: desired.target.exists },
    policy: desired,
    live,
    plan: { ...buildResult(prepared, diff.conflicts, undefined), projectId: base.project.id },
  });
}

/**
 * Gates a prepared plan and executes it. Returns the result, or throws
 * `PushConflictError`, `PushAbortedError`, `ApplyFailedError` or `CancelledError`.
 */
export async function gateAndExecute(rt: OperationRuntime, prepared: PreparedPlan, flags: GateFlags): Promise<PushResult> {
  for (const w of prepared.warnings) rt.emit({ type: "warning", ...w });
  const decision = gatePlan({
    branchName: prepared.base.branch.name, liveProtected: prepared.base.branch.protected,
    changes: prepared.diff.changes.map((c) => c.change), conflicts: prepared.diff.conflicts,
    dryRun: flags.dryRun, updateExisting: flags.updateExisting, allowProtectedBranch: flags.allowProtectedBranch,
    hasConfirm: flags.confirm !== undefined,
  });
  rt.emit({ type: "plan", summary: prepared.diff.summary });
  const checks = await checkPrepared(prepared, flags.checks);
  const withChecks = (result: PushResult): PushResult => (checks === undefined ? result : Object.assign(result, { checks }));
  if (decision.action === "report") return withChecks(buildResult(prepared, decision.conflicts, undefined));
  if (decision.action === "refuse") {
    throw new PushConflictError(decision.conflicts, prepared.base.branch.name, withChecks(buildResult(prepared, decision.conflicts, undefined, false)));
  }
  const blocking = blockingChecks(checks);
  if (blocking.length > 0) throw new CheckFailedError(blocking, prepared.base.branch.name, withChecks(buildResult(prepared, prepared.diff.conflicts, undefined, false)));
  if (decision.action === "confirm" && flags.confirm !== undefined) {
    const ok = await flags.confirm(decision.context);
    if (ok !== true) throw new PushAbortedError(prepared.base.branch.name, decision.reasons);
  }
  if (rt.signal?.aborted) throw new CancelledError(`apply to branch "${prepared.base.branch.name}"`);
  const limit = createAdaptiveLimit({ initial: rt.concurrency, max: rt.maxConcurrency });
  const api = observedApi(rt.api, {
    onRetry: (event) => {
      rt.emit(event);
      // Throttling, or no answer at all (a connection that could not open, e.g. out of file descriptors; a time limit): fewer in flight.
      if (event.status === undefined || THROTTLE_STATUSES.has(event.status)) limit.throttled();
    },
    onRequest: (report) => limit.latency(report.ms, requestKind(report.method, report.path)),
  });
  const execution = executePlan(prepared.diff.changes, executionContext({ ...rt, api }, prepared, limit));
  // The result's digests hold the plan alone: hashed while the apply waits, not after its last answer.
  digestInSlices(prepared.diff.changes);
  const outcome = await execution;
  const result = withChecks(buildResult(prepared, [], outcome));
  if (rt.signal?.aborted && (outcome.skipped.length > 0 || outcome.failed.length > 0)) {
    throw new CancelledError(`apply to branch "${prepared.base.branch.name}"`, outcome.started ? result : undefined);
  }
  if (outcome.failed.length > 0) throw new ApplyFailedError(result);
  return result;
}

/**
 * A request's kind for latency tracking: its method and path with every id segment (the odd
 * ones: `/projects/{p}/branches/{b}/functions/{slug}/deployments`) replaced by `*`.
 */
function requestKind(method: string, path: string): string {
  return `${method} ${path.split("/").map((segment, i) => (i % 2 === 0 && i > 0 ? "*" : segment)).join("/")}`;
}

/** Resolves `config` for the live branch (one closure evaluation). */
export function resolverFor(config: PolicyConfig, options: { baseDir?: string; branchExists?: boolean }): (base: BaseLiveState) => ResolvedPolicy {
  return (base) => resolvePolicy(config, targetOf(base, options.branchExists ?? true), options.baseDir === undefined ? {} : { baseDir: options.baseDir });
}

/**
 * The engine behind `plan` and `apply`: reads the existing branch, evaluates the policy,
 * bundles every function, plans, gates and (unless `dryRun`) applies.
 */
export function pushConfig(config: PolicyConfig, given: PushConfigOptions): Promise<PushResult> {
  return pushConfigInRun(config, given, {});
}

/** What the operations of one run (a fleet) share besides the budget in their options. */
export interface RunShare {
  /** Each function source bundled once for the run's branches. */
  archives?: SharedArchives;
  /** The replicas the run's verifications share. */
  replicas?: ReplicaPool;
  /** Builds started when the policy was loaded (`bundle-head-start.ts`), taken by the plan when they are its own. */
  headStart?: BundleHeadStart;
  /** Given the plan a dry run's result was built from, once the result is complete (`shown-plan.ts`). */
  onPlanned?: (result: PushResult, prepared: PreparedPlan) => void;
}

/** {@link pushConfig} as one branch of a run: with the run's shared archives. */
export async function pushConfigInRun(config: PolicyConfig, given: PushConfigOptions, run: RunShare): Promise<PushResult> {
  const options = ownOptions(given);
  const rt = withApiEvents(prepareRuntime("pushConfig", options));
  const selection = readSelection(options);
  if (options.verify === true && options.dryRun === true) warmReplica(run.replicas);
  const full = await preparePlan(rt, {
    ids: { projectId: options.projectId, branchId: options.branchId },
    resolveDesired: resolverFor(config, options),
    ...withMemory(config),
    ...(options.bundleFunction ? { bundleFunction: options.bundleFunction } : {}),
    ...(run.archives === undefined ? {} : { shared: run.archives }),
    ...(run.headStart === undefined ? {} : { headStart: run.headStart }),
    allowDataLoss: options.allowDataLoss ?? false,
    now: () => new Date(),
    dryRun: options.dryRun === true,
  });
  const prepared = selectPrepared(full, selection);
  const result = await gateAndExecute(rt, prepared, {
    dryRun: options.dryRun ?? false,
    updateExisting: options.updateExisting ?? false,
    allowProtectedBranch: options.allowProtectedBranch ?? false,
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(options.checks === undefined ? {} : { checks: options.checks }),
  });
  if (options.verify === true && result.dryRun) {
    result.verification = await verifyPrepared(rt, prepared, {
      contextFor: executionContext,
      allowDataLoss: options.allowDataLoss ?? false,
      ...(selection === undefined ? {} : { selection }),
      ...(run.replicas === undefined ? {} : { replicas: run.replicas }),
    });
  }
  if (result.dryRun) run.onPlanned?.(result, prepared);
  return result;
}

/** Dry run: `pushConfig` with `dryRun: true, updateExisting: true`. Conflicts are returned, never thrown. */
export function plan(config: PolicyConfig, options: PlanOptions): Promise<PushResult> {
  return pushConfig(config, { ...options, dryRun: true, updateExisting: true });
}

/**
 * Applies the policy to an existing branch: no `confirm`, so unresolved drift throws
 * `PushConflictError` unless `updateExisting` is set.
 */
export function apply(config: PolicyConfig, options: ApplyOptions): Promise<PushResult> {
  const { confirm: _confirm, dryRun: _dryRun, ...rest } = ownOptions(options) as PushConfigOptions;
  return pushConfig(config, rest);
}
