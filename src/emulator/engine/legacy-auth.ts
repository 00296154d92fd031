/**
 * The state rules behind the deprecated per-project auth routes: which branch a legacy
 * call acts on (`branch_id`, else the default branch), the integration of a named provider, the
 * project's default database, and the ownership transfer (started by a call, completed once by
 * its link).
 */
import type { AuthRec, BranchRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** A completed ownership transfer: the branch whose integration the user now owns. */
export interface CompletedAuthTransfer {
  projectId: string;
  branchId: string;
}

/** The branch a legacy call acts on: `branchId` if given, else the project's default branch (`not_found` when absent). */
export function legacyTargetBranch(world: World, project: ProjectRec, branchId: string | undefined): BranchRec {
  if (branchId !== undefined) {
    const branch = project.branches.get(branchId);
    if (branch === undefined) throw new RuleError("not_found", `branch ${branchId} not found in project ${project.id}`);
    return branch;
  }
  const branch = world.defaultBranch(project);
  if (branch === undefined) throw new RuleError("not_found", `project ${project.id} has no default branch`);
  return branch;
}

/** The branch's auth integration of `provider` (`not_found` when it has none, or one of another provider). */
export function findProviderAuth(project: ProjectRec, branch: BranchRec, provider: string): AuthRec {
  const auth = branch.auth;
  if (auth === undefined || auth.provider !== provider) throw new RuleError("not_found", `no ${provider} auth integration on branch ${branch.id} of project ${project.id}`);
  return auth;
}

/** The project's default database: the oldest database of its root branch (the one created with the project). */
export function projectDefaultDatabase(world: World, project: ProjectRec): string | undefined {
  const root = [...project.branches.values()].find((b) => b.parentId === undefined) ?? world.defaultBranch(project);
  const databases = [...(root?.databases.values() ?? [])].sort((a, b) => a.id - b.id);
  return databases[0]?.name;
}

/** Starts transferring the branch's `provider` integration to the user; returns the id of its one-time completion link. */
export function startAuthTransfer(world: World, project: ProjectRec, branch: BranchRec, provider: string): string {
  const auth = findProviderAuth(project, branch, provider);
  const id = world.ids.hex(24);
  world.authTransfers.set(id, { projectId: project.id, branchId: branch.id });
  auth.transferStatus = "initiated";
  return id;
}

/** Completes the transfer `id` (once): the user owns the integration (`not_found` for an unknown or used link, or a gone integration). */
export function completeAuthTransfer(world: World, id: string): CompletedAuthTransfer {
  const transfer = world.authTransfers.get(id);
  const auth = transfer !== undefined ? world.projects.get(transfer.projectId)?.branches.get(transfer.branchId)?.auth : undefined;
  if (transfer === undefined || auth === undefined) throw new RuleError("not_found", "this auth transfer link is unknown or was already used; request a new one with POST /projects/auth/transfer_ownership");
  auth.ownedBy = "user";
  auth.transferStatus = "finished";
  world.authTransfers.delete(id);
  return { projectId: transfer.projectId, branchId: transfer.branchId };
}
