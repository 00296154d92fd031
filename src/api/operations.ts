/**
 * Waiting for control-plane operations: one watcher per
 * project reads the operations list (newest first, paging until every pending id is seen) once
 * per tick for every wait in progress, so the requests per tick do not grow with the number of
 * pending operations. The pause between ticks is `polling.initialMs` after a completion or a new
 * wait joining, otherwise a fifth of the oldest wait's age, within `polling.initialMs` and
 * `polling.maxMs` (`poll-interval.ts`). Each wait gives up after `timeouts.operationMs`.
 */
import { CancelledError, ErrorCode, PlatformError, TimeoutError, isPlatformError } from "../errors/index.js";
import type { PlatformApiPolling } from "./client-options.js";
import type { Page } from "./pagination.js";
import { nextPollMs } from "./poll-interval.js";
import type { ApiOperation } from "./wire-types.js";

/** Statuses that end an operation successfully. */
const SUCCESS = new Set(["finished", "skipped"]);
/** Statuses that end an operation in failure. */
const FAILURE = new Set(["failed", "error", "cancelled"]);
/** Smallest page asked for: pending operations are the newest, so one page nearly always covers them. */
const MIN_PAGE = 100;
/** The list's largest `limit`. */
const MAX_PAGE = 1000;

/** Whether an operation status is terminal (success or failure). */
export function isTerminalStatus(status: string): boolean {
  return SUCCESS.has(status) || FAILURE.has(status);
}

/** Whether a failed poll is worth another tick (5xx, network errors and timeouts are transient). */
export function isTransientPollError(err: unknown): boolean {
  return isPlatformError(err, ErrorCode.SERVER_ERROR) || isPlatformError(err, ErrorCode.NETWORK_ERROR) || isPlatformError(err, ErrorCode.TIMEOUT);
}

/** What a project's watcher needs from the client. */
export interface OperationWatcherContext {
  projectId: string;
  /** One page of `GET /projects/{p}/operations`, newest first. */
  listOperations: (query: { cursor: string | undefined; limit: number }) => Promise<Page<ApiOperation>>;
  /** `GET /projects/{p}/operations/{id}`: only for an id the whole list no longer shows. */
  getOperation: (operationId: string) => Promise<ApiOperation>;
  polling: PlatformApiPolling;
  limitMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  signal?: AbortSignal;
}

/** Waits for operations of one project, all through one list read per tick. */
export interface OperationWatcher {
  /**
   * Resolves with the final records, in the given order, once every operation ended
   * `finished`/`skipped`. Rejects with a `PlatformError` (`PLATFORM_API_ERROR`) naming the first
   * failed operation, `TimeoutError` naming the first unfinished one after `limitMs`, or
   * `CancelledError`.
   */
  wait(operations: readonly ApiOperation[]): Promise<ApiOperation[]>;
}

interface Waiter {
  ids: string[];
  since: number;
  deadline: number;
  resolve: (finals: ApiOperation[]) => void;
  reject: (err: unknown) => void;
}

/** Creates the watcher of one project; its loop runs only while a wait is in progress. */
export function createOperationWatcher(ctx: OperationWatcherContext): OperationWatcher {
  const latest = new Map<string, ApiOperation>();
  const waiters = new Set<Waiter>();
  let running = false;
  let joined = false;

  /** Settles `w` if its operations allow; returns whether it settled. */
  function settle(w: Waiter, now: number): boolean {
    const records = w.ids.map((id) => latest.get(id) as ApiOperation);
    const failed = records.find((op) => FAILURE.has(op.status));
    if (failed !== undefined) {
      w.reject(operationFailed(ctx.projectId, failed));
      return true;
    }
    const open = records.find((op) => !isTerminalStatus(op.status));
    if (open === undefined) {
      w.resolve(records);
      return true;
    }
    if (now < w.deadline) return false;
    w.reject(
      new TimeoutError(
        { waitingFor: `operation ${open.action}`, id: open.id, limitMs: ctx.limitMs },
        { details: { projectId: ctx.projectId, status: open.status } },
      ),
    );
    return true;
  }

  function pendingIds(): Set<string> {
    const ids = new Set<string>();
    for (const w of waiters) for (const id of w.ids) if (!isTerminalStatus((latest.get(id) as ApiOperation).status)) ids.add(id);
    return ids;
  }

  /** One tick: list pages until every pending id is seen, then fetch any the list no longer shows. */
  async function read(pending: Set<string>): Promise<void> {
    const unseen = new Set(pending);
    const limit = Math.min(MAX_PAGE, Math.max(MIN_PAGE, 2 * pending.size));
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await ctx.listOperations({ cursor, limit });
      for (const op of page.items) {
        if (!unseen.delete(op.id)) continue;
        latest.set(op.id, op);
      }
      const next = page.nextCursor;
      if (unseen.size === 0 || page.items.length === 0 || next === undefined || next === "" || cursors.has(next)) break;
      cursors.add(next);
      cursor = next;
    }
    for (const id of unseen) latest.set(id, await ctx.getOperation(id));
  }

  /** Drops the records of a settled wait that no other wait shares. */
  function forget(w: Waiter): void {
    waiters.delete(w);
    const shared = new Set([...waiters].flatMap((other) => other.ids));
    for (const id of w.ids) if (!shared.has(id)) latest.delete(id);
  }

  function rejectAll(err: unknown): void {
    for (const w of waiters) w.reject(err);
    waiters.clear();
    latest.clear();
  }

  async function loop(): Promise<void> {
    let interval = ctx.polling.initialMs;
    while (waiters.size > 0) {
      joined = false;
      try {
        await ctx.sleep(interval, ctx.signal);
      } catch {
        rejectAll(new CancelledError(`Waiting for operations of project ${ctx.projectId}`));
        break;
      }
      const pending = pendingIds();
      const before = pending.size;
      try {
        await read(pending);
      } catch (err) {
        if (!isTransientPollError(err)) {
          rejectAll(err);
          break;
        }
      }
      const now = ctx.now();
      for (const w of [...waiters]) if (settle(w, now)) forget(w);
      const progressed = pendingIds().size < before;
      const oldest = [...waiters].reduce((min, w) => Math.min(min, w.since), now);
      interval = nextPollMs(ctx.polling, progressed || joined, now - oldest);
    }
    running = false;
  }

  return {
    wait(operations) {
      return new Promise<ApiOperation[]>((resolve, reject) => {
        for (const op of operations) if (!latest.has(op.id)) latest.set(op.id, op);
        const since = ctx.now();
        const waiter: Waiter = { ids: operations.map((op) => op.id), since, deadline: since + ctx.limitMs, resolve, reject };
        if (settle(waiter, Number.NEGATIVE_INFINITY)) {
          forget(waiter);
          return;
        }
        if (ctx.signal?.aborted === true) {
          reject(new CancelledError(`Waiting for operations of project ${ctx.projectId}`));
          return;
        }
        waiters.add(waiter);
        joined = true;
        if (!running) {
          running = true;
          // Waits started in the same turn (the executor's ready changes) join before the first tick.
          queueMicrotask(() => void loop());
        }
      });
    },
  };
}

function operationFailed(projectId: string, operation: ApiOperation): PlatformError {
  const why = operation.error ? `: ${operation.error}` : "";
  return new PlatformError(
    ErrorCode.API_ERROR,
    `Operation ${operation.id} (${operation.action}) on project ${projectId} ended ${operation.status}${why}. ` +
      "Check the project's operations in the console, then apply again.",
    {
      details: {
        reason: "operation failed",
        projectId,
        operationId: operation.id,
        action: operation.action,
        status: operation.status,
        error: operation.error,
      },
    },
  );
}
