/**
 * Compute endpoints: create, update, delete, start, suspend, restart. Each checks the
 * state (compute range, the project lock, one read_write endpoint per branch, disabled endpoints)
 * and returns the endpoint with the operations it started; those operations carry the state
 * changes (`init` → `active`, `active` → `idle`).
 */
import type { EndpointCreateRequest, EndpointUpdateRequest } from "../../api/wire/index.js";
import type { EndpointRec, OperationRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { beginStart, finishStart, finishSuspend, newEndpointRecord } from "./lifecycle.js";
import { requireUnlocked, startOperations, type OperationFailureHook, type OperationSpec } from "./operations.js";
import { RuleError } from "./rule-error.js";

/** An endpoint and the operations a change of it started. */
export interface EndpointChange {
  endpoint: EndpointRec;
  operations: OperationRec[];
}

/** Refuses (`unprocessable`) unless min ≤ max and, when they differ, both ≤ 16 and max − min ≤ 8. */
export function checkComputeRange(minCu: number, maxCu: number, path: string): void {
  if (minCu > maxCu) throw new RuleError("unprocessable", `${path}: autoscaling_limit_min_cu (${minCu}) must not exceed autoscaling_limit_max_cu (${maxCu})`);
  if (minCu !== maxCu && (maxCu > 16 || maxCu - minCu > 8)) {
    throw new RuleError("unprocessable", `${path}: with autoscaling, both limits must be at most 16 and differ by at most 8 (got ${minCu}-${maxCu})`);
  }
}

/** The `start_compute` operation of an endpoint, with its state changes. */
export function startComputeSpec(world: World, ep: EndpointRec): OperationSpec {
  return { action: "start_compute", branchId: ep.branchId, endpointId: ep.id, onStart: () => beginStart(ep), onFinish: (failed) => finishStart(world, ep, failed) };
}

function suspendSpec(world: World, ep: EndpointRec): OperationSpec {
  return {
    action: "suspend_compute",
    branchId: ep.branchId,
    endpointId: ep.id,
    onStart: () => {
      ep.pendingState = "idle";
    },
    onFinish: (failed) => finishSuspend(world, ep, failed),
  };
}

/** The same operation, recorded but without effects (the endpoint is already in that state). */
function skipped(spec: OperationSpec): OperationSpec {
  return { ...spec, skip: true, onStart: undefined, onFinish: undefined };
}

function requireEnabled(ep: EndpointRec, verb: string): void {
  if (ep.disabled) throw new RuleError("conflict", `endpoint ${ep.id} is disabled; PATCH it with disabled: false before ${verb} it`);
}

/** The project's endpoint `id`, or `not_found`. */
export function findEndpoint(project: ProjectRec, id: string): EndpointRec {
  const endpoint = project.endpoints.get(id);
  if (endpoint === undefined) throw new RuleError("not_found", `endpoint ${id} not found in project ${project.id}`);
  return endpoint;
}

/** Creates an endpoint on a branch (limits default to the project's endpoint settings) and starts `start_compute`. */
export function createEndpoint(world: World, project: ProjectRec, input: EndpointCreateRequest["endpoint"], shouldFail: OperationFailureHook): EndpointChange {
  const branch = project.branches.get(input.branch_id);
  if (branch === undefined) throw new RuleError("not_found", `endpoint.branch_id: branch ${input.branch_id} not found in project ${project.id}`);
  const min = input.autoscaling_limit_min_cu ?? project.defaultEndpointSettings.autoscaling_limit_min_cu ?? 0.25;
  const max = input.autoscaling_limit_max_cu ?? project.defaultEndpointSettings.autoscaling_limit_max_cu ?? Math.max(min, 2);
  checkComputeRange(min, max, "endpoint");
  requireUnlocked(project);
  if (input.type === "read_write" && [...project.endpoints.values()].some((e) => e.branchId === branch.id && e.type === "read_write")) {
    throw new RuleError("conflict", `branch ${branch.id} already has a read_write endpoint; add a read_only endpoint or update the existing one`, { code: "already_exists" });
  }
  const { branch_id: branchId, ...options } = input;
  const endpoint = newEndpointRecord(world, project, branchId, { ...options, autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max });
  return { endpoint, operations: startOperations(world, project, [startComputeSpec(world, endpoint)], shouldFail) };
}

/** Updates an endpoint's settings and starts `apply_config` (and `suspend_compute` when it disables an active one). */
export function updateEndpoint(world: World, project: ProjectRec, endpoint: EndpointRec, input: EndpointUpdateRequest["endpoint"], shouldFail: OperationFailureHook): EndpointChange {
  checkComputeRange(input.autoscaling_limit_min_cu ?? endpoint.minCu, input.autoscaling_limit_max_cu ?? endpoint.maxCu, "endpoint");
  if (input.branch_id !== undefined && !project.branches.has(input.branch_id)) throw new RuleError("not_found", `endpoint.branch_id: branch ${input.branch_id} not found in project ${project.id}`);
  requireUnlocked(project);
  if (input.autoscaling_limit_min_cu !== undefined) endpoint.minCu = input.autoscaling_limit_min_cu;
  if (input.autoscaling_limit_max_cu !== undefined) endpoint.maxCu = input.autoscaling_limit_max_cu;
  if (input.suspend_timeout_seconds !== undefined) endpoint.suspendTimeoutSeconds = input.suspend_timeout_seconds;
  if (input.settings !== undefined) endpoint.settings = { ...endpoint.settings, ...input.settings };
  if (input.provisioner !== undefined) endpoint.provisioner = input.provisioner;
  if (input.name !== undefined) endpoint.name = input.name;
  if (input.pooler_enabled !== undefined) endpoint.poolerEnabled = input.pooler_enabled;
  if (input.pooler_mode !== undefined) endpoint.poolerMode = input.pooler_mode;
  if (input.branch_id !== undefined) endpoint.branchId = input.branch_id;
  const specs: OperationSpec[] = [{ action: "apply_config", branchId: endpoint.branchId, endpointId: endpoint.id }];
  if (input.disabled !== undefined) {
    if (input.disabled && endpoint.currentState === "active") specs.push(suspendSpec(world, endpoint));
    endpoint.disabled = input.disabled;
  }
  endpoint.updatedAt = world.clock.now();
  return { endpoint, operations: startOperations(world, project, specs, shouldFail) };
}

/** Deletes an endpoint (`suspend_compute` first when active); `undefined` when there is none (deleting is idempotent). */
export function deleteEndpoint(world: World, project: ProjectRec, id: string, shouldFail: OperationFailureHook): EndpointChange | undefined {
  const endpoint = project.endpoints.get(id);
  if (endpoint === undefined) return undefined;
  requireUnlocked(project);
  const specs = endpoint.currentState === "active" ? [{ action: "suspend_compute", branchId: endpoint.branchId, endpointId: endpoint.id }] : [];
  const operations = startOperations(world, project, specs, shouldFail);
  project.endpoints.delete(endpoint.id);
  return { endpoint, operations };
}

/** Starts an endpoint (a skipped `start_compute` when it already runs); refused while disabled. */
export function startEndpoint(world: World, project: ProjectRec, endpoint: EndpointRec, shouldFail: OperationFailureHook): OperationRec[] {
  requireUnlocked(project);
  requireEnabled(endpoint, "starting");
  const spec = startComputeSpec(world, endpoint);
  return startOperations(world, project, [endpoint.currentState === "active" ? skipped(spec) : spec], shouldFail);
}

/** Suspends an endpoint (a skipped `suspend_compute` when it is not running). */
export function suspendEndpoint(world: World, project: ProjectRec, endpoint: EndpointRec, shouldFail: OperationFailureHook): OperationRec[] {
  requireUnlocked(project);
  const spec = suspendSpec(world, endpoint);
  return startOperations(world, project, [endpoint.currentState !== "active" ? skipped(spec) : spec], shouldFail);
}

/** Restarts an endpoint: `suspend_compute` then `start_compute`; refused while disabled. */
export function restartEndpoint(world: World, project: ProjectRec, endpoint: EndpointRec, shouldFail: OperationFailureHook): OperationRec[] {
  requireUnlocked(project);
  requireEnabled(endpoint, "restarting");
  return startOperations(world, project, [suspendSpec(world, endpoint), startComputeSpec(world, endpoint)], shouldFail);
}
