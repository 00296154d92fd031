import pLimit from "p-limit";
import type { PlatformApi } from "../api/platform-api.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { PushResult } from "../model/plan.js";
import type { PushConfigOptions } from "./options.js";
import { CONCURRENCY_CEILING, isConcurrency } from "../rules/concurrency.js";
import { ownOptions, prepareRuntime } from "./options.js";
import { pushConfigInRun, type RunShare } from "./push-config.js";
import { ReplicaPool } from "./replica-pool.js";
import { SharedArchives } from "./shared-archives.js";
import { globRegExp } from "./select-changes.js";
import { checkShard, shardOfBranch, type FleetShard } from "./fleet-shard.js";

/** Options of {@link planFleet} and {@link applyFleet}: one policy, many branches of one project. */
export interface FleetOptions extends Omit<PushConfigOptions, "branchId" | "dryRun" | "concurrency"> {
  /**
   * Which branches: `"all"`, a glob over branch names (`*` matches any run of characters,
   * e.g. `preview/*`), or a list of branch ids.
   */
  branches: string | readonly string[];
  /**
   * One budget for the whole run: HTTP requests in flight across every branch at once (a wait
   * for an operation holds none), and bundles at once. 1–64. @default 16
   */
  concurrency?: number;
  /** Called as each branch finishes, in completion order. */
  onBranch?: (outcome: FleetBranchOutcome) => void;
  /**
   * Run only this shard of the matched branches (`{ index: 2, count: 4 }`): each branch belongs to
   * exactly one shard, by a hash of its id, so `count` runs with indexes 1 to `count` together
   * cover every matched branch once. @default every matched branch
   */
  shard?: FleetShard;
}

/** What happened on one branch of a fleet run. */
export interface FleetBranchOutcome {
  branchId: string;
  branchName: string;
  /** The branch's plan or apply result; for a failed apply, the result its error carries, if any. */
  result?: PushResult;
  /** Why the branch did not plan or apply cleanly (the operation's thrown error). */
  error?: Error;
}

/** The outcome of a fleet run: every selected branch, in branch-name order. */
export interface FleetResult {
  projectId: string;
  /** The dry run (`planFleet`) or the apply (`applyFleet`). */
  dryRun: boolean;
  branches: FleetBranchOutcome[];
  /** How many branches matched `branches`, in every shard together. */
  matched: number;
  /** The shard this run covered, when one was asked for. */
  shard?: FleetShard;
  /** Wall time of the whole run, in ms. */
  ms: number;
}

/**
 * Replicas a fleet's verifications share: verifying is work in this process, so two keep it busy
 * while one branch's verification waits on a poll.
 */
const VERIFY_REPLICAS = 2;

function globMatcher(glob: string): (name: string) => boolean {
  if (glob === "all") return () => true;
  const regex = globRegExp(glob);
  return (name) => regex.test(name);
}

/** Every method of `api` runs under `limit`, except the operation wait, which holds no slot. */
function sharedBudget(api: PlatformApi, limit: ReturnType<typeof pLimit>): PlatformApi {
  return new Proxy(api, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "waitForOperations") return value;
      return (...args: unknown[]) => limit(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

async function runFleet(config: PolicyConfig, given: FleetOptions, dryRun: boolean): Promise<FleetResult> {
  const options = ownOptions(given);
  const started = performance.now();
  const budget = options.concurrency ?? 16;
  if (!isConcurrency(budget)) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `Invalid option concurrency: must be an integer from 1 to ${CONCURRENCY_CEILING} (got ${String(budget)}).`, { details: { option: "concurrency", value: String(budget) } });
  }
  const shard = options.shard === undefined ? undefined : checkShard(options.shard);
  const rt = prepareRuntime(dryRun ? "planFleet" : "applyFleet", { ...options, concurrency: Math.min(budget, 16) }, "project");
  const limit = pLimit(budget);
  const api = sharedBudget(rt.api, limit);
  const listed = await api.listBranches({ projectId: options.projectId });
  const wanted = typeof options.branches === "string" ? ((b: { id: string; name: string }) => globMatcher(options.branches as string)(b.name)) : ((b: { id: string }) => (options.branches as readonly string[]).includes(b.id));
  const matched = listed.filter(wanted).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const selected = shard === undefined ? matched : matched.filter((b) => shardOfBranch(b.id, shard.count) === shard.index);
  // One archive per function source for the whole fleet, unless the caller bundles; the
  // verifications reuse a few replicas.
  const share: RunShare = {
    ...(options.bundleFunction === undefined ? { archives: new SharedArchives() } : {}),
    ...(options.verify === true && dryRun ? { replicas: new ReplicaPool(VERIFY_REPLICAS) } : {}),
  };
  const { branches: _branches, onBranch, concurrency: _concurrency, shard: _shard, ...engineOptions } = options;
  const outcomes = await Promise.all(selected.map(async (branch): Promise<FleetBranchOutcome> => {
    let outcome: FleetBranchOutcome;
    try {
      const result = await pushConfigInRun(config, {
        ...engineOptions, api, branchId: branch.id, dryRun,
        concurrency: Math.min(budget, 16),
        ...(dryRun ? { updateExisting: true } : {}),
      }, share);
      outcome = { branchId: branch.id, branchName: branch.name, result };
    } catch (err) {
      const carried = (err as { details?: { result?: PushResult } }).details?.result;
      outcome = { branchId: branch.id, branchName: branch.name, error: asError(err), ...(carried === undefined ? {} : { result: carried }) };
    }
    onBranch?.(outcome);
    return outcome;
  }));
  return { projectId: options.projectId, dryRun, branches: outcomes, matched: matched.length, ...(shard === undefined ? {} : { shard }), ms: Math.round(performance.now() - started) };
}

/**
 * Plans one policy on many branches of a project: each branch evaluates the policy's closure
 * with its own input and is planned like `plan`; every HTTP request of the run shares one
 * concurrency budget; a branch that fails is reported and never stops the others.
 */
export function planFleet(config: PolicyConfig, options: FleetOptions): Promise<FleetResult> {
  return runFleet(config, options, true);
}

/**
 * Applies one policy to many branches of a project, each like `pushConfig` (its gate, its
 * `confirm`), under one shared concurrency budget; a branch that fails or is refused is reported
 * with its error and never stops the others.
 */
export function applyFleet(config: PolicyConfig, options: FleetOptions): Promise<FleetResult> {
  return runFleet(config, options, false);
}
