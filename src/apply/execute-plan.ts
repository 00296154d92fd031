import type { PlannedChange } from "../model/planned-change.js";
import { ErrorCode } from "../errors/codes.js";
import { isPlatformError } from "../errors/platform-error.js";
import type { Json } from "../model/json.js";
import type { AppliedChange, Change } from "../model/plan.js";
import type { ExecutionContext, HandlerDetails } from "./execution-context.js";
import { identifierOf } from "./gate-plan.js";
import { applyChange } from "./handlers/index.js";
import { MinHeap } from "../diff/min-heap.js";
import { indexDependencies } from "../diff/order-changes.js";
import { byRemainingPath, type RemainingPath, remainingPaths } from "./remaining-paths.js";

/** What happened to every change of an executed plan. */
export interface ExecutionOutcome {
  /** In plan order. */
  applied: AppliedChange[];
  failed: { change: AppliedChange; error: { code: string; message: string; details?: { [key: string]: Json } } }[];
  skipped: { change: AppliedChange; reason: string; blockedBy?: string }[];
  /** Whether any mutation was sent (reads alone do not count). */
  started: boolean;
}

/** The `AppliedChange` record of a change. */
export function toAppliedChange(change: Change, branchName: string, status: AppliedChange["status"], details?: HandlerDetails): AppliedChange {
  const applied: AppliedChange = {
    id: change.id,
    address: change.address,
    kind: change.kind,
    action: change.action,
    class: change.class,
    fields: change.fields,
    identifier: identifierOf(change, branchName),
    field: change.fields[0] ?? "*",
    status,
  };
  if (details !== undefined && Object.keys(details).length > 0) applied.details = details;
  return applied;
}

function errorRecord(err: unknown): { code: string; message: string; details?: { [key: string]: Json } } {
  if (isPlatformError(err)) {
    const json = JSON.parse(JSON.stringify(err.details ?? {})) as { [key: string]: Json };
    return { code: err.code, message: err.message, details: json };
  }
  return { code: "PLATFORM_API_ERROR", message: err instanceof Error ? err.message : String(err) };
}

/**
 * The error record of a change cut short by cancellation after it started: whatever error the
 * interrupted wait or request raised, part of the change may already be on the platform.
 */
function cancelledRecord(change: Change): { code: string; message: string } {
  return {
    code: ErrorCode.CANCELLED,
    message: `${change.id} was cancelled while in progress; part of it may have been applied. Run plan to see the branch's state.`,
  };
}

type State = "pending" | "running" | "applied" | "failed" | "skipped";

/** Thrown when a change reaches a request after the signal aborted, before any mutation of its own: it never started. */
class NotStarted extends Error {}

/** A change's context, and whether it has sent a mutation yet. */
interface GuardedContext {
  context: ExecutionContext;
  mutated: () => boolean;
}

/**
 * The context for one change: its requests wait for a slot with the priority of its remaining
 * `path` (the whole of it until its first mutation, then its dependents'); once
 * the signal has aborted, they are refused until it has sent its first mutation (reads alone
 * change nothing, so the change has not started); `onFirstMutation` runs when a mutation is
 * actually sent.
 */
function guardedContext(ctx: ExecutionContext, path: RemainingPath, onFirstMutation: () => void): GuardedContext {
  let mutated = false;
  const guard = <T>(fn: () => Promise<T>, mutation: boolean) => (): Promise<T> => {
    if (!mutated && ctx.signal?.aborted === true) throw new NotStarted("cancelled before its first mutation");
    if (mutation && !mutated) {
      mutated = true;
      onFirstMutation();
    }
    return fn();
  };
  const send = ctx.mutation ?? ctx.request;
  const priority = (): number => (mutated ? path.afterMutation : path.whole);
  // Assigned, not spread and extended: V8 builds a spread followed by more keys slowly, once per change.
  const guarded: Pick<ExecutionContext, "request" | "mutation"> = { request: (fn) => ctx.request(guard(fn, false), priority()), mutation: (fn) => send(guard(fn, true), priority()) };
  return { context: Object.assign({}, ctx, guarded), mutated: () => mutated };
}

/**
 * Walks the plan's dependency graph: a change starts once all its
 * dependencies succeeded, ready changes start longest remaining path first (plan order among
 * equals; `remaining-paths.ts`) and their requests take free slots in that order, so what the
 * rest of the plan waits behind goes first; the plan and its results keep plan order. A failure skips its transitive
 * dependents (`blockedBy` names the root failure) and the rest continues. After the signal
 * aborts, nothing new starts and unstarted changes are skipped as cancelled. The graph is
 * checked first: a dependency outside the plan or a cycle throws a `PlatformError` before
 * anything runs. Each completion costs O(its dependents · log N): no rescans of the plan.
 */
export function executePlan(plan: readonly PlannedChange[], ctx: ExecutionContext): Promise<ExecutionOutcome> {
  const graph = indexDependencies(plan.map((p) => p.change), "reject");
  const { dependents, indegree } = graph;
  const paths = remainingPaths(plan, graph, ctx.expectedWaits);
  const state: State[] = plan.map(() => "pending");
  const rootFailure = new Map<number, string>();
  const details = new Map<number, HandlerDetails>();
  const errors = new Map<number, ReturnType<typeof errorRecord>>();
  const skipReasons = new Map<number, string>();
  const ready = new MinHeap<number>(byRemainingPath(paths));
  indegree.forEach((d, i) => {
    if (d === 0) ready.push(i);
  });
  let running = 0;
  let settled = 0;
  let started = false;
  let cancelledAll = false;

  const skip = (i: number, reason: string, root?: string): void => {
    state[i] = "skipped";
    settled += 1;
    skipReasons.set(i, reason);
    if (root !== undefined) rootFailure.set(i, root);
    ctx.emit({ type: "change", id: (plan[i] as PlannedChange).change.id, phase: "skipped", reason });
  };

  /** Skips every pending transitive dependent of `from`, in plan order. */
  const skipDependents = (from: number, root: string, reason: string): void => {
    const reached = new Set<number>();
    const stack = [...(dependents[from] ?? [])];
    for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
      if (reached.has(i) || state[i] !== "pending") continue;
      reached.add(i);
      stack.push(...(dependents[i] ?? []));
    }
    for (const i of [...reached].sort((a, b) => a - b)) skip(i, reason, root);
  };

  return new Promise((resolve) => {
    const finish = (): void => {
      const outcome: ExecutionOutcome = { applied: [], failed: [], skipped: [], started };
      plan.forEach(({ change }, i) => {
        const s = state[i];
        if (s === "applied") outcome.applied.push(toAppliedChange(change, ctx.branchName, "applied", details.get(i)));
        else if (s === "failed") outcome.failed.push({ change: toAppliedChange(change, ctx.branchName, "planned"), error: errors.get(i) ?? { code: "PLATFORM_API_ERROR", message: "failed" } });
        else if (s === "skipped") {
          const blockedBy = rootFailure.get(i);
          outcome.skipped.push({ change: toAppliedChange(change, ctx.branchName, "planned"), reason: skipReasons.get(i) ?? "skipped", ...(blockedBy ? { blockedBy } : {}) });
        }
      });
      resolve(outcome);
    };

    const settle = (i: number, outcome: "applied" | "failed" | "cancelled"): void => {
      const { change } = plan[i] as PlannedChange;
      running -= 1;
      settled += 1;
      if (outcome === "applied") {
        for (const d of dependents[i] ?? []) {
          indegree[d] = (indegree[d] ?? 0) - 1;
          if (indegree[d] === 0 && state[d] === "pending") ready.push(d);
        }
      } else if (outcome === "failed") {
        skipDependents(i, change.id, `dependency ${change.id} failed`);
      } else {
        skipDependents(i, change.id, "cancelled");
      }
      pump();
    };

    const start = (i: number): void => {
      const planned = plan[i] as PlannedChange;
      const { change } = planned;
      state[i] = "running";
      running += 1;
      ctx.emit({ type: "change", id: change.id, phase: "start" });
      const guarded = guardedContext(ctx, paths[i] as RemainingPath, () => (started = true));
      applyChange(guarded.context, planned).then(
        (result) => {
          state[i] = "applied";
          details.set(i, result);
          ctx.emit({ type: "change", id: change.id, phase: "done" });
          settle(i, "applied");
        },
        (err: unknown) => {
          // A change cancelled before its first mutation (refused, or a read aborted in flight) changed nothing.
          if (err instanceof NotStarted || (isPlatformError(err, ErrorCode.CANCELLED) && !guarded.mutated())) {
            state[i] = "skipped";
            skipReasons.set(i, "cancelled");
            ctx.emit({ type: "change", id: change.id, phase: "skipped", reason: "cancelled" });
            settle(i, "cancelled");
            return;
          }
          const record = isPlatformError(err, ErrorCode.CANCELLED) ? cancelledRecord(change) : errorRecord(err);
          state[i] = "failed";
          errors.set(i, record);
          ctx.emit({ type: "change", id: change.id, phase: "failed", reason: record.message });
          settle(i, "failed");
        },
      );
    };

    const pump = (): void => {
      if (ctx.signal?.aborted === true && !cancelledAll) {
        cancelledAll = true;
        plan.forEach((_, i) => {
          if (state[i] === "pending") skip(i, "cancelled");
        });
      }
      for (let i = ready.pop(); i !== undefined; i = ready.pop()) if (state[i] === "pending") start(i);
      if (running === 0 && settled === plan.length) finish();
    };
    pump();
  });
}
