/**
 * Resuming a restored world: transitions are pure functions of stored
 * deadlines, so after a restart every in-flight operation, build, domain activation, branch
 * expiry and project purge is scheduled again from its record. Operation effects are derived
 * from the action, as the routes that created them define them.
 */
import type { OperationRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { scheduleBuild } from "./deployments.js";
import { finishStart, finishSuspend, scheduleExpiry } from "./lifecycle.js";
import { scheduleOperation, type OperationSpec } from "./operations.js";
import { schedulePurge } from "./project-deletion.js";

function effectsOf(world: World, project: ProjectRec, op: OperationRec): Pick<OperationSpec, "onStart" | "onFinish"> {
  if (op.willSkip) return {};
  const endpoint = op.endpointId !== undefined ? project.endpoints.get(op.endpointId) : undefined;
  switch (op.action) {
    case "create_branch":
    case "create_timeline":
      return {
        onFinish: () => {
          const branch = op.branchId !== undefined ? project.branches.get(op.branchId) : undefined;
          if (branch !== undefined && branch.currentState === "init") {
            branch.currentState = "ready";
            branch.stateChangedAt = world.clock.now();
          }
        },
      };
    case "start_compute":
      if (endpoint === undefined) return {};
      return {
        onStart: () => {
          endpoint.pendingState = "active";
        },
        onFinish: (failed) => finishStart(world, endpoint, failed),
      };
    case "suspend_compute":
      if (endpoint === undefined) return {};
      return {
        onStart: () => {
          endpoint.pendingState = "idle";
        },
        onFinish: (failed) => finishSuspend(world, endpoint, failed),
      };
    default:
      return {};
  }
}

/** Schedules every pending transition of a freshly restored world. */
export function resumeWorld(world: World): void {
  const now = world.clock.now();
  for (const project of world.projects.values()) {
    for (const op of project.operations) if (project.inFlight.has(op.id)) scheduleOperation(world, project, op, effectsOf(world, project, op));
    for (const branch of project.branches.values()) {
      if (branch.expiresAt !== undefined) scheduleExpiry(world, project, branch);
      for (const fn of branch.functions.values()) for (const d of fn.deployments) scheduleBuild(world, d);
    }
    schedulePurge(world, project);
  }
  for (const domain of world.domains.values()) if (domain.activeAt > now) world.scheduler.at(domain.activeAt, () => undefined);
  world.scheduler.materialize(now);
}
