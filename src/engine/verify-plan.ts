import { resolveClientOptions } from "../api/client-options.js";
import { platformApiOver } from "../api/create-platform-api.js";
import { executePlan } from "../apply/execute-plan.js";
import type { Change } from "../model/plan.js";
import type { FunctionTag } from "../model/planned-change.js";
import type { PlanVerification } from "../model/plan.js";
import { createReplicaFingerprinter, type Fingerprinter } from "./function-fingerprint.js";
import type { OperationRuntime } from "./options.js";
import { type PreparedPlan, preparePlan } from "./prepare-plan.js";
import type { ExecutionContext } from "../apply/execution-context.js";
import { type PooledReplica, ReplicaPool } from "./replica-pool.js";
import { replicaSeed } from "./replica-seed.js";
import { type Selection, selectPrepared } from "./select-changes.js";

/** The replica single plans verify on: built by the process's first verification, reseeded by the next. */
let singlePlanReplicas: ReplicaPool | undefined;

function singlePlanPool(): ReplicaPool {
  if (singlePlanReplicas === undefined) singlePlanReplicas = new ReplicaPool(1, { emptyWhenIdle: true });
  return singlePlanReplicas;
}

/**
 * Starts building the replica a coming verification uses (a run's `replicas`, or the process's
 * own), so its modules load while the plan waits on the platform.
 */
export function warmReplica(replicas?: ReplicaPool): void {
  (replicas ?? singlePlanPool()).warm();
}

/** The replica answers at once, so its waits poll fast. */
const REPLICA_POLLING = { initialMs: 1, maxMs: 5 };

/** Inputs of {@link verifyPrepared} besides the prepared plan. */
export interface VerifyInput {
  /** The executor's context for a prepared plan (the one apply uses), built on the replica's runtime. */
  contextFor: (rt: OperationRuntime, prepared: PreparedPlan) => ExecutionContext;
  /** As the plan was made: the re-plan on the replica uses the same. */
  allowDataLoss: boolean;
  /** The plan's `targets` / `exclude`: the re-plan is narrowed the same way. */
  selection?: Selection;
  /** The run's replicas (a fleet's); a replica of its own otherwise. */
  replicas?: ReplicaPool;
}

function failure(changeId: string | undefined, code: string, message: string): PlanVerification["failures"][number] {
  return { ...(changeId === undefined ? {} : { changeId }), code, message };
}

function errorOf(err: unknown): { code: string; message: string } {
  const code = typeof (err as { code?: unknown })?.code === "string" ? (err as { code: string }).code : "PLATFORM_VERIFY_FAILED";
  return { code, message: err instanceof Error ? err.message : String(err) };
}

/**
 * Verifies a prepared plan (no request beyond the plan's own reads reaches the platform): loads
 * what the plan read into a replica (the emulator's routes answered in this process, no socket),
 * executes the plan's changes there with the
 * engine's executor and handlers (operations and builds take no time), and plans again with the
 * same resolved policy and archives. Verified when every change applied and the re-plan is empty.
 * The emulator runs the platform's archive checks, so an archive the platform would reject fails
 * here as its build would.
 */
export async function verifyPrepared(rt: OperationRuntime, prepared: PreparedPlan, input: VerifyInput): Promise<PlanVerification> {
  let started = performance.now();
  const unchecked = prepared.diff.changes
    .filter((p) => p.op.type === "domain-create")
    .map((p) => ({ changeId: p.change.id, reason: "a plan does not read hostnames registered on other branches or projects; the platform may refuse this one" }));
  const done = (failures: PlanVerification["failures"], residual: Change[]): PlanVerification => ({
    verified: failures.length === 0 && residual.length === 0, residual, failures, unchecked, ms: Math.round(performance.now() - started),
  });
  const blocking = prepared.diff.conflicts.filter((c) => c.blocking);
  if (blocking.length > 0) {
    // Apply would refuse before any change: nothing to apply on the replica, nothing to re-plan.
    return done(blocking.map((c) => failure(c.changeId, c.code, `${c.kind} ${c.identifier} blocks apply: ${c.reason}`)), []);
  }
  try {
    const seedFor = (apiKey: string) => replicaSeed(prepared.live, apiKey);
    const { failures, residual } = await (input.replicas ?? singlePlanPool()).use(seedFor, (replica, apiKey) => {
      started = performance.now(); // a fleet's branch may have waited for a free replica
      return applyAndReplan(rt, prepared, input, { replica, apiKey });
    });
    return done(failures, residual);
  } catch (err) {
    const { code, message } = errorOf(err);
    return done([failure(undefined, code, `the replica could not be applied and re-planned: ${message}`)], []);
  }
}

/**
 * The fingerprints the replica's apply and re-plan use. The re-plan fingerprints the same
 * functions as the plan (the same resolved policy, archives and fingerprinter), so it takes the
 * plan's tags. A tag the plan deferred (hardened mode, a function it deploys whatever its env)
 * has no env parts yet: the real apply derives them with scrypt, about 0.1 s of a core per value,
 * for markers the platform keeps. The replica's markers stay in this process, so those functions
 * get tags of a replica fingerprinter instead (the same shape, keyed by a random key it holds),
 * written by the replica's apply and given to the re-plan, which compares them as it would the
 * real ones.
 */
async function replicaTags(rt: OperationRuntime, prepared: PreparedPlan): Promise<{ fingerprints: Fingerprinter; functionTags: ReadonlyMap<string, FunctionTag> }> {
  const deferred = [...prepared.functionTags].filter(([, tag]) => tag.envTag === undefined);
  if (deferred.length === 0) return { fingerprints: rt.fingerprints, functionTags: prepared.functionTags };
  const fingerprints = createReplicaFingerprinter(prepared.ids.projectId);
  const functions = new Map(prepared.desired.functions.map((fn) => [fn.slug, fn]));
  const functionTags = new Map(prepared.functionTags);
  for (const [slug, tag] of deferred) {
    const fn = functions.get(slug);
    if (fn !== undefined) functionTags.set(slug, await fingerprints.tag({ slug, zipSha256: tag.zipSha256, runtime: fn.runtime, env: fn.env }));
  }
  return { fingerprints, functionTags };
}

/** Applies the prepared plan's changes on a seeded replica, then plans again there. */
async function applyAndReplan(rt: OperationRuntime, prepared: PreparedPlan, input: VerifyInput, on: { replica: PooledReplica; apiKey: string }): Promise<{ failures: PlanVerification["failures"]; residual: Change[] }> {
  // The replica's own sender: its answers are computed in this process, so an attempt needs no
  // `fetch` options, abort controller or timer; retries, error mapping and response checks stay.
  const config = resolveClientOptions({ apiKey: on.apiKey, apiHost: on.replica.apiHost, polling: REPLICA_POLLING, ...(rt.signal ? { signal: rt.signal } : {}) });
  const api = platformApiOver({ ...config, transport: { ...config.transport, send: on.replica.send } });
  // Requests in flight are fixed at the run's ceiling from the first one: the adaptive limit's slow
  // start and back-off protect a platform and follow its latency, and the replica, answering in
  // this process, has neither; starting at `concurrency` only queued the plan's requests.
  const { fingerprints, functionTags } = await replicaTags(rt, prepared);
  const replicaRt: OperationRuntime = {
    ...rt, api, fingerprints, emit: () => undefined, concurrency: rt.maxConcurrency,
    timing: { ...rt.timing, pollInitialMs: REPLICA_POLLING.initialMs, pollMaxMs: REPLICA_POLLING.maxMs },
  };
  const outcome = await executePlan(prepared.diff.changes, input.contextFor(replicaRt, prepared));
  const failures = [
    ...outcome.failed.map((f) => failure(f.change.id, f.error.code, f.error.message)),
    ...outcome.skipped.map((s) => failure(s.change.id, "SKIPPED", s.reason)),
  ];
  const again = selectPrepared(await preparePlan(replicaRt, {
    ids: prepared.ids,
    resolveDesired: () => prepared.desired,
    archives: prepared.archives,
    functionTags,
    allowDataLoss: input.allowDataLoss,
    now: () => new Date(),
    // The verdict reads the re-plan's changes and conflicts only.
    stateFingerprint: false,
  }), input.selection);
  failures.push(...again.diff.conflicts.filter((c) => c.blocking).map((c) => failure(c.changeId, c.code, `${c.kind} ${c.identifier}: ${c.reason}`)));
  return { failures, residual: again.diff.changes.map((p) => p.change) };
}
