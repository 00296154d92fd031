import type { ApiOperation, PlatformApi } from "../api/platform-api.js";
import type { ResolvedFunction, ResolvedPolicy } from "../model/desired-state.js";
import { ErrorCode } from "../errors/codes.js";
import { isPlatformError } from "../errors/platform-error.js";
import type { AppliedChangeDetails, Change } from "../model/plan.js";
import type { BuildWatcher } from "./build-watcher.js";
import type { EngineEvent } from "../model/events.js";
import type { OpOf, OpType, PlannedOf } from "../model/planned-change.js";

/** Time limits and poll intervals the executor uses for build waits. */
export interface ExecutionTiming {
  deploymentMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
}

/** Everything a change handler needs. */
export interface ExecutionContext {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  branchName: string;
  desired: ResolvedPolicy;
  /**
   * Runs `send` with function `slug`'s canonical archive bytes, read (and checked against the
   * plan's digest) when it is called and released when `send` settles. Rejects with a
   * `PLATFORM_BUNDLE_FAILED` error naming the function, without calling `send`, when the plan has
   * no archive for it or its bytes are not the planned ones.
   */
  withArchive: <T>(slug: string, send: (zip: Uint8Array) => Promise<T>) => Promise<T>;
  /**
   * Runs one HTTP request while holding a concurrency slot; while every slot is taken, a request
   * of a higher `priority` gets the next free one (the executor passes its change's remaining path).
   */
  request: <T>(fn: () => Promise<T>, priority?: number) => Promise<T>;
  /**
   * Runs one mutating request while holding a slot; `request` when absent. The executor sets
   * it to learn when a change first changes the platform (cancellation).
   */
  mutation?: <T>(fn: () => Promise<T>, priority?: number) => Promise<T>;
  emit: (event: EngineEvent) => void;
  /** The branch's one watcher of function builds (one list request per tick for all of them). */
  builds: BuildWatcher;
  /** The marker names of a function whose plan deferred its env tag, the main one first (derived before its upload). */
  functionMarkers: (slug: string) => Promise<string[]>;
  signal?: AbortSignal;
  timing: ExecutionTiming;
  /** Waits; resolves early when the signal aborts. */
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** The handler of every operation, from the kind modules of the registry. */
  handlers: ChangeHandlers;
  /** What every operation typically waits for, from the kind modules of the registry; absent: no operation waits. */
  expectedWaits?: ExpectedWaits;
}

/** Carries out one change whose operation is `T`, sending its planned values, and returns its `AppliedChange.details`. */
export type ChangeHandler<T extends OpType> = (ctx: ExecutionContext, change: Change, op: OpOf<T>, planned: PlannedOf<T>) => Promise<HandlerDetails>;

/** A handler per operation (the registry's kinds together cover every operation). */
export type ChangeHandlers = { readonly [T in OpType]?: ChangeHandler<T> };

/**
 * Per operation, the time its change typically spends waiting on the platform after its
 * requests (a build, a control-plane operation), ms; absent: none. A typical figure of the
 * platform, not a limit: the executor only orders ready changes by it, never times a wait.
 */
export type ExpectedWaits = { readonly [T in OpType]?: (op: OpOf<T>) => number };

/** A control-plane operation's typical run on the platform (seconds: its guidance is to poll one every 5 s). */
export const OPERATION_WAIT_MS = 5_000;

/** What a handler reports for an applied change (`AppliedChange.details`). */
export type HandlerDetails = AppliedChangeDetails;

/** The branch reference of the context. */
export function branchRef(ctx: ExecutionContext): { projectId: string; branchId: string } {
  return { projectId: ctx.projectId, branchId: ctx.branchId };
}

/**
 * Runs a mutation; after `OutcomeUnknownError` reconciles: `check` reads the
 * platform and says whether the mutation landed (`true`), is provably absent (`false`: one
 * resend) or cannot be told (`undefined`: the original error is rethrown).
 */
export async function mutateWithReconcile<T>(
  ctx: ExecutionContext,
  mutate: () => Promise<T>,
  check: () => Promise<boolean | undefined>,
): Promise<T | undefined> {
  const send = ctx.mutation ?? ctx.request;
  try {
    return await send(mutate);
  } catch (err) {
    if (!isPlatformError(err, ErrorCode.OUTCOME_UNKNOWN) || ctx.signal?.aborted === true) throw err;
    const landed = await check();
    if (landed === true) return undefined;
    if (landed === false) return await send(mutate);
    throw err;
  }
}

/** Re-throws anything but a 404, which becomes `undefined`. */
export function absentOn404<T>(err: unknown): T | undefined {
  if (isPlatformError(err, ErrorCode.NOT_FOUND)) return undefined;
  throw err;
}

const functionIndex = new WeakMap<ResolvedPolicy, ReadonlyMap<string, ResolvedFunction>>();

function indexed<T>(cache: WeakMap<ResolvedPolicy, ReadonlyMap<string, T>>, desired: ResolvedPolicy, list: readonly T[], key: (item: T) => string): ReadonlyMap<string, T> {
  let index = cache.get(desired);
  if (index === undefined) {
    index = new Map(list.map((item) => [key(item), item]));
    cache.set(desired, index);
  }
  return index;
}

/** The declared function `slug` (a Map lookup, built once per policy). */
export function desiredFunction(ctx: ExecutionContext, slug: string): ResolvedFunction | undefined {
  return indexed(functionIndex, ctx.desired, ctx.desired.functions, (f) => f.slug).get(slug);
}

/** Waits for a mutation's operations without holding a request slot; returns their ids. */
export async function waitFor(ctx: ExecutionContext, changeId: string, operations: readonly ApiOperation[]): Promise<string[]> {
  if (operations.length === 0) return [];
  for (const op of operations) ctx.emit({ type: "wait", changeId, waitingFor: "operation", id: op.id, status: op.status });
  const done = await ctx.api.waitForOperations({ projectId: ctx.projectId, operations });
  for (const op of done) ctx.emit({ type: "wait", changeId, waitingFor: "operation", id: op.id, status: op.status });
  return operations.map((o) => o.id);
}
