import type { PlannedChange } from "../diff/plan-types.js";
import { ErrorCode } from "../errors/codes.js";
import { isPlatformError } from "../errors/platform-error.js";
import type { Json } from "../model/json.js";
import type { AppliedChange, Change } from "../model/plan.js";
import type { ExecutionContext, HandlerDetails } from "./execution-context.js";
import { identifierOf } from "./gate-plan.js";
import { applyChange } from "./handlers/index.js";

/** What happened to every change of an executed plan. */
export interface ExecutionOutcome {
  /** In plan order. */
  applied: AppliedChange[];
  failed: { change: AppliedChange; error: { code: string; message: string; details?: { [key: string]: Json } } }[];
  skipped: { change: AppliedChange; reason: string; blockedBy?: string }[];
  /** Whether any mutation was sent (reads alone do not count: engine.md §7.2). */
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
 * The context for one change: once the signal has aborted, its requests are refused until it
 * has sent its first mutation (reads alone change nothing, so the change has not started);
 * `onFirstMutation` runs when a mutation is actually sent.
 */
function guardedContext(ctx: ExecutionContext, onFirstMutation: () => void): GuardedContext {
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
  return {
    context: { ...ctx, request: (fn) => ctx.request(guard(fn, false)), mutation: (fn) => send(guard(fn, true)) },
    mutated: () => mutated,
  };
}

/**
 * Walks the plan's dependency graph (engine.md §7.2): a change starts once all its
 * dependencies succeeded, ready changes start in plan order, a failure skips its transitive
 * dependents (`blockedBy` names the root failure) and the rest continues. After the signal
 * aborts, nothing new starts and unstarted changes are skipped as cancelled.
 */
export function executePlan(plan: readonly PlannedChange[], ctx: ExecutionContext): Promise<ExecutionOutcome> {
  const state = new Map<string, State>(plan.map((p) => [p.change.id, "pending"]));
  const rootFailure = new Map<string, string>();
  const details = new Map<string, HandlerDetails>();
  const errors = new Map<string, ReturnType<typeof errorRecord>>();
  const skipReasons = new Map<string, string>();
  let running = 0;
  let started = false;

  return new Promise((resolve) => {
    const finish = (): void => {
      const outcome: ExecutionOutcome = { applied: [], failed: [], skipped: [], started };
      for (const { change } of plan) {
        const s = state.get(change.id);
        if (s === "applied") outcome.applied.push(toAppliedChange(change, ctx.branchName, "applied", details.get(change.id)));
        else if (s === "failed") outcome.failed.push({ change: toAppliedChange(change, ctx.branchName, "planned"), error: errors.get(change.id) ?? { code: "PLATFORM_API_ERROR", message: "failed" } });
        else if (s === "skipped") {
          const blockedBy = rootFailure.get(change.id);
          outcome.skipped.push({ change: toAppliedChange(change, ctx.branchName, "planned"), reason: skipReasons.get(change.id) ?? "skipped", ...(blockedBy ? { blockedBy } : {}) });
        }
      }
      resolve(outcome);
    };

    const pump = (): void => {
      const cancelled = ctx.signal?.aborted === true;
      for (const { change } of plan) {
        if (state.get(change.id) !== "pending") continue;
        if (cancelled) {
          state.set(change.id, "skipped");
          skipReasons.set(change.id, "cancelled");
          ctx.emit({ type: "change", id: change.id, phase: "skipped", reason: "cancelled" });
          continue;
        }
        const blocker = change.dependsOn.find((d) => state.get(d) === "failed" || state.get(d) === "skipped");
        if (blocker !== undefined) {
          const root = state.get(blocker) === "failed" ? blocker : (rootFailure.get(blocker) ?? blocker);
          state.set(change.id, "skipped");
          rootFailure.set(change.id, root);
          const reason = skipReasons.get(blocker) === "cancelled" ? "cancelled" : `dependency ${root} failed`;
          skipReasons.set(change.id, reason);
          ctx.emit({ type: "change", id: change.id, phase: "skipped", reason });
        }
      }
      for (const planned of plan) {
        const { change } = planned;
        if (state.get(change.id) !== "pending") continue;
        if (!change.dependsOn.every((d) => !state.has(d) || state.get(d) === "applied")) continue;
        state.set(change.id, "running");
        running += 1;
        ctx.emit({ type: "change", id: change.id, phase: "start" });
        const guarded = guardedContext(ctx, () => (started = true));
        applyChange(guarded.context, planned).then(
          (result) => {
            state.set(change.id, "applied");
            details.set(change.id, result);
            ctx.emit({ type: "change", id: change.id, phase: "done" });
          },
          (err: unknown) => {
            // A change cancelled before its first mutation (refused, or a read aborted in flight) changed nothing.
            if (err instanceof NotStarted || (isPlatformError(err, ErrorCode.CANCELLED) && !guarded.mutated())) {
              state.set(change.id, "skipped");
              skipReasons.set(change.id, "cancelled");
              ctx.emit({ type: "change", id: change.id, phase: "skipped", reason: "cancelled" });
              return;
            }
            const record = isPlatformError(err, ErrorCode.CANCELLED) ? cancelledRecord(change) : errorRecord(err);
            state.set(change.id, "failed");
            errors.set(change.id, record);
            ctx.emit({ type: "change", id: change.id, phase: "failed", reason: record.message });
          },
        ).finally(() => {
          running -= 1;
          pump();
        });
      }
      if (running === 0 && [...state.values()].every((s) => s !== "pending" && s !== "running")) finish();
    };
    pump();
  });
}
