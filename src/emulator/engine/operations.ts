/**
 * Operation chains and the project lock. A mutation creates an ordered chain,
 * all `scheduling`; the first starts `op_sched` ms later, each later one `op_sched` ms after its
 * predecessor ends, and each ends `op_run` ms after it started. Effects run when an operation
 * starts and ends. A project is locked while any of its operations is in flight.
 */
import type { OperationRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** One operation of a chain and its effects. */
export interface OperationSpec {
  action: string;
  branchId?: string;
  endpointId?: string;
  /** Ends `skipped` (nothing to do). */
  skip?: boolean;
  /** Runs when the operation becomes `running`. */
  onStart?: () => void;
  /** Runs when it ends; `failed` is true for an injected failure. */
  onFinish?: (failed: boolean) => void;
}

/** Decides whether an operation with this action fails (fault rule `opfail`). */
export type OperationFailureHook = (action: string) => boolean;

/** Starts a chain of operations on a project and returns the records (already materialised). */
export function startOperations(world: World, project: ProjectRec, specs: OperationSpec[], shouldFail: OperationFailureHook = () => false): OperationRec[] {
  const now = world.clock.now();
  const { opSchedulingMs, opRunMs } = world.timings;
  let previousEnd = now;
  const records: OperationRec[] = [];
  for (const spec of specs) {
    const startAt = previousEnd + opSchedulingMs;
    const finishAt = startAt + opRunMs;
    previousEnd = finishAt;
    const op: OperationRec = {
      id: world.ids.uuid(),
      seq: world.newOperationSeq(),
      projectId: project.id,
      ...(spec.branchId !== undefined ? { branchId: spec.branchId } : {}),
      ...(spec.endpointId !== undefined ? { endpointId: spec.endpointId } : {}),
      action: spec.action,
      status: "scheduling",
      failuresCount: 0,
      createdAt: now,
      updatedAt: now,
      startAt,
      finishAt,
      willFail: spec.skip !== true && shouldFail(spec.action),
      willSkip: spec.skip === true,
      totalDurationMs: 0,
    };
    project.operations.push(op);
    project.inFlight.add(op.id);
    records.push(op);
    scheduleOperation(world, project, op, spec);
  }
  world.scheduler.materialize(world.clock.now());
  return records;
}

/** Schedules the remaining transitions of an in-flight operation: `running` at `startAt`, the end at `finishAt`. */
export function scheduleOperation(world: World, project: ProjectRec, op: OperationRec, effects: Pick<OperationSpec, "onStart" | "onFinish">): void {
  if (op.status === "scheduling") {
    world.scheduler.at(op.startAt, () => {
      op.status = "running";
      op.updatedAt = op.startAt;
      effects.onStart?.();
    });
  }
  world.scheduler.at(op.finishAt, () => {
    op.status = op.willSkip ? "skipped" : op.willFail ? "failed" : "finished";
    if (op.willFail) {
      op.error = "injected operation failure";
      op.failuresCount = 1;
    }
    op.updatedAt = op.finishAt;
    op.totalDurationMs = op.finishAt - op.createdAt;
    project.inFlight.delete(op.id);
    effects.onFinish?.(op.willFail);
  });
}

/** The operation holding the project lock, if any. */
export function lockHolder(project: ProjectRec): OperationRec | undefined {
  for (const id of project.inFlight) {
    const op = project.operations.find((o) => o.id === id);
    if (op !== undefined) return op;
  }
  return undefined;
}

/** Refuses (`locked`, 423) while an operation is in flight on the project; the message names it. */
export function requireUnlocked(project: ProjectRec): void {
  const op = lockHolder(project);
  if (op !== undefined) throw new RuleError("locked", `project ${project.id} is locked by operation ${op.id} (${op.action}, ${op.status}); retry after it finishes`);
}

/** Drops operations older than 183 days (the seed allows deleting those older than 6 months). */
export function pruneOperations(project: ProjectRec, now: number): void {
  const cutoff = now - 183 * 24 * 3600 * 1000;
  if (project.operations.length > 0 && (project.operations[0]?.createdAt ?? now) < cutoff) {
    project.operations = project.operations.filter((o) => o.createdAt >= cutoff || project.inFlight.has(o.id));
  }
}

/** Starts a system operation (`check_availability` by default) that runs for `ms` and holds the project lock. */
export function startSystemOperation(world: World, project: ProjectRec, action: string, ms: number): OperationRec {
  const now = world.clock.now();
  const op: OperationRec = {
    id: world.ids.uuid(),
    seq: world.newOperationSeq(),
    projectId: project.id,
    action,
    status: "running",
    failuresCount: 0,
    createdAt: now,
    updatedAt: now,
    startAt: now,
    finishAt: now + ms,
    willFail: false,
    willSkip: false,
    totalDurationMs: 0,
  };
  project.operations.push(op);
  project.inFlight.add(op.id);
  world.scheduler.at(op.finishAt, () => {
    op.status = "finished";
    op.updatedAt = op.finishAt;
    op.totalDurationMs = op.finishAt - op.createdAt;
    project.inFlight.delete(op.id);
  });
  world.scheduler.materialize(now);
  return op;
}
