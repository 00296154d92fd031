/**
 * Branch lifecycle rules: create from a parent (plan limits, unique
 * names, a point in the parent's history), update, set as default, delete (refused for the
 * default, a protected branch or one with children). Each returns what the route renders; the
 * operations it starts carry the state changes (`init` → `ready`, computes starting).
 */
import type { BranchRec, EndpointRec, OperationRec, ProjectRec } from "../store/records.js";
import { PLAN_LIMITS, type World } from "../store/world.js";
import { startComputeSpec } from "./endpoints.js";
import { createBranchSpec, finishSuspend, newBranchRecord, newEndpointRecord, removeBranch, scheduleExpiry, type EndpointInit } from "./lifecycle.js";
import { startOperations, type OperationFailureHook, type OperationSpec } from "./operations.js";
import { checkPointInTime } from "./restore.js";
import { RuleError } from "./rule-error.js";

/** A timestamp that must lie in the future (`expires_at`), in epoch ms. */
export function futureTime(value: string, field: string, now: number): number {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new RuleError("invalid", `${field} "${value}" is not an RFC 3339 timestamp`, { field });
  if (at <= now) throw new RuleError("invalid", `${field} ${value} is in the past; give a future time or null to clear it`, { field });
  return at;
}

function requireFreeName(project: ProjectRec, name: string, except?: string): void {
  for (const b of project.branches.values()) {
    if (b.name === name && b.id !== except) throw new RuleError("conflict", `branch "${name}" already exists in project ${project.id}; choose another name`, { code: "already_exists" });
  }
}

function requireProtectable(world: World, project: ProjectRec): void {
  const plan = world.planOf(project);
  if (!PLAN_LIMITS[plan].protectedBranches) throw new RuleError("forbidden", `protected branches are not available on the ${plan} plan`, { code: "plan_limit_exceeded" });
}

/** What a new branch is made of (wire values already validated). */
export interface BranchCreateInput {
  name?: string;
  parentId?: string;
  parentTimestamp?: number;
  parentLsn?: string;
  protected?: boolean;
  expiresAt?: number;
  initSource?: string;
  annotation?: Record<string, string>;
  endpoints: EndpointInit[];
}

/** Creates a branch from its parent (default: the project's default branch) with its endpoints, and starts `create_branch` and `start_compute`. */
export function createBranch(world: World, project: ProjectRec, input: BranchCreateInput, shouldFail: OperationFailureHook): { branch: BranchRec; endpoints: EndpointRec[]; operations: OperationRec[] } {
  const now = world.clock.now();
  const parent = input.parentId !== undefined ? project.branches.get(input.parentId) : world.defaultBranch(project);
  if (parent === undefined) throw new RuleError("not_found", `parent branch ${input.parentId ?? "(default)"} not found in project ${project.id}`);
  if (input.parentTimestamp !== undefined) checkPointInTime(project, parent, input.parentTimestamp, "branch.parent_timestamp", now);
  if (input.name !== undefined) requireFreeName(project, input.name);
  const plan = world.planOf(project);
  const limits = PLAN_LIMITS[plan];
  if (project.branches.size >= limits.branchesPerProject) {
    throw new RuleError("forbidden", `the ${plan} plan allows ${limits.branchesPerProject} branches per project; delete a branch or upgrade the plan`, { code: "plan_limit_exceeded" });
  }
  if (input.protected === true) requireProtectable(world, project);
  const branch = newBranchRecord(world, project, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    parent,
    ...(input.parentTimestamp !== undefined ? { parentTimestamp: input.parentTimestamp } : {}),
    ...(input.parentLsn !== undefined ? { parentLsn: input.parentLsn } : {}),
    protected: input.protected ?? false,
    ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
    initSource: input.initSource ?? "parent-data",
    state: "init",
  });
  if (input.annotation !== undefined) branch.annotation = { ...input.annotation };
  const endpoints = input.endpoints.map((e) => newEndpointRecord(world, project, branch.id, { ...e }));
  const specs: OperationSpec[] = [
    createBranchSpec(world, branch),
    ...endpoints.map((ep) => startComputeSpec(world, ep)),
  ];
  return { branch, endpoints, operations: startOperations(world, project, specs, shouldFail) };
}

/** Renames, (un)protects or sets/clears the expiry of a branch (`expiresAt: null` clears it). */
export function updateBranch(world: World, project: ProjectRec, branch: BranchRec, input: { name?: string; protected?: boolean; expiresAt?: number | null }): void {
  if (input.name !== undefined) requireFreeName(project, input.name, branch.id);
  if (input.protected === true) requireProtectable(world, project);
  if (input.name !== undefined) branch.name = input.name;
  if (input.protected !== undefined) branch.protected = input.protected;
  if (input.expiresAt === null) delete branch.expiresAt;
  else if (input.expiresAt !== undefined) {
    branch.expiresAt = input.expiresAt;
    scheduleExpiry(world, project, branch);
  }
  branch.updatedAt = world.clock.now();
}

/** Makes `branch` the project's default; the previous default loses the flag. */
export function setDefaultBranch(world: World, project: ProjectRec, branch: BranchRec): void {
  const now = world.clock.now();
  for (const b of project.branches.values()) {
    if (b.isDefault && b.id !== branch.id) {
      b.isDefault = false;
      b.updatedAt = now;
    }
  }
  branch.isDefault = true;
  branch.updatedAt = now;
}

/** Deletes a branch and everything on it: `suspend_compute` per active endpoint, then `delete_timeline`. */
export function deleteBranch(world: World, project: ProjectRec, branch: BranchRec, shouldFail: OperationFailureHook): OperationRec[] {
  if (branch.isDefault) throw new RuleError("conflict", `branch ${branch.id} is the project's default branch; set another branch as default before deleting it`, { code: "in_use" });
  if (branch.protected) throw new RuleError("conflict", `branch ${branch.id} is protected; unprotect it before deleting it`, { code: "in_use" });
  if ([...project.branches.values()].some((b) => b.parentId === branch.id)) throw new RuleError("conflict", `branch ${branch.id} has child branches; delete them first`, { code: "in_use" });
  const specs: OperationSpec[] = [];
  for (const ep of project.endpoints.values()) {
    if (ep.branchId === branch.id && ep.currentState === "active") {
      specs.push({ action: "suspend_compute", branchId: branch.id, endpointId: ep.id, onFinish: (failed) => finishSuspend(world, ep, failed) });
    }
  }
  specs.push({ action: "delete_timeline", branchId: branch.id });
  const operations = startOperations(world, project, specs, shouldFail);
  removeBranch(world, project, branch);
  return operations;
}
