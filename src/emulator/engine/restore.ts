/**
 * Snapshots and branch restore at record level: a snapshot keeps a branch's roles (with their
 * passwords) and databases; restoring gives a branch the roles and databases of a source branch
 * (or a snapshot) and its endpoints the source's compute settings. The emulator keeps no history,
 * so a point in time is validated and recorded but restores the records as they are.
 */
import type { BackupScheduleEntry, BranchRec, DatabaseContent, EndpointRec, OperationRec, ProjectRec, SnapshotRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { startComputeSpec } from "./endpoints.js";
import { createBranchSpec, finishSuspend, lsnAt, newBranchRecord, timeAtLsn } from "./lifecycle.js";
import { requireUnlocked, startOperations, type OperationFailureHook, type OperationSpec } from "./operations.js";
import { RuleError } from "./rule-error.js";


/** A detached copy of a branch's roles and databases. */
export function captureDatabases(branch: Pick<BranchRec, "roles" | "databases">): DatabaseContent {
  return {
    roles: new Map([...branch.roles].map(([name, role]) => [name, { ...role }])),
    databases: new Map([...branch.databases].map(([name, db]) => [name, { ...db }])),
  };
}

/** The start of a branch's history: its creation, or `history_retention_seconds` ago. */
export function historyStart(project: ProjectRec, branch: BranchRec, now: number): number {
  return Math.max(branch.createdAt, now - project.historyRetentionSeconds * 1000);
}

/** Checks a point in time of `branch`'s history: not in the future and not before its history starts. */
export function checkPointInTime(project: ProjectRec, branch: BranchRec, at: number, field: string, now: number): void {
  if (at > now) throw new RuleError("unprocessable", `${field} ${new Date(at).toISOString()} is in the future; give a past time within the history window`, { field: field });
  const start = historyStart(project, branch, now);
  if (at < start) throw new RuleError("unprocessable", `${field} ${new Date(at).toISOString()} is before the history of branch ${branch.id} (it starts at ${new Date(start).toISOString()}); give a later time`, { field: field });
}

function nameTaken(project: ProjectRec, name: string): boolean {
  for (const b of project.branches.values()) if (b.name === name) return true;
  return false;
}

/** Refuses an `expires_at` that is not in the future. */
function checkExpiry(expiresAt: number | undefined, now: number): void {
  if (expiresAt !== undefined && expiresAt <= now) throw new RuleError("invalid", `expires_at ${new Date(expiresAt).toISOString()} is in the past; give a future time`, { field: "expires_at" });
}

/**
 * Takes a snapshot of `branch` (its records as they are now) at a point of its history: `timestamp`,
 * or the moment `lsn` was written, else now. Both at once are refused.
 */
export function createSnapshot(world: World, project: ProjectRec, branch: BranchRec, input: { name?: string; lsn?: string; timestamp?: number; expiresAt?: number }): SnapshotRec {
  const now = world.clock.now();
  if (input.timestamp !== undefined && input.lsn !== undefined) throw new RuleError("invalid", "give lsn or timestamp, not both", { field: "timestamp" });
  const timestamp = input.timestamp ?? (input.lsn !== undefined ? timeAtLsn(input.lsn) : now);
  if (input.timestamp !== undefined || input.lsn !== undefined) checkPointInTime(project, branch, timestamp, input.lsn !== undefined ? "lsn" : "timestamp", now);
  checkExpiry(input.expiresAt, now);
  const id = world.newWordId("snap-");
  const snapshot: SnapshotRec = {
    id,
    name: input.name ?? `${branch.name} snapshot ${new Date(now).toISOString()}`,
    sourceBranchId: branch.id,
    lsn: input.lsn ?? lsnAt(timestamp),
    timestamp,
    createdAt: now,
    ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
    content: captureDatabases(branch),
  };
  project.snapshots.set(id, snapshot);
  return snapshot;
}

/** The project's snapshots, newest first, dropping those past `expires_at`. */
export function listSnapshots(project: ProjectRec, now: number): SnapshotRec[] {
  for (const [id, s] of [...project.snapshots]) if (s.expiresAt !== undefined && s.expiresAt <= now) project.snapshots.delete(id);
  return [...project.snapshots.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}

/** A snapshot by id, or a `not_found` rule error. */
export function findSnapshot(project: ProjectRec, id: string, now: number): SnapshotRec {
  const snapshot = listSnapshots(project, now).find((s) => s.id === id);
  if (snapshot === undefined) throw new RuleError("not_found", `snapshot ${id} not found in project ${project.id}`);
  return snapshot;
}

/** Renames a snapshot and sets or clears (`null`) its expiry; omitted fields keep their values. */
export function updateSnapshot(world: World, snapshot: SnapshotRec, input: { name?: string; expiresAt?: number | null }): void {
  if (input.expiresAt !== undefined && input.expiresAt !== null) checkExpiry(input.expiresAt, world.clock.now());
  if (input.name !== undefined) snapshot.name = input.name;
  if (input.expiresAt === null) delete snapshot.expiresAt;
  else if (input.expiresAt !== undefined) snapshot.expiresAt = input.expiresAt;
}

/** Deletes the project's snapshot `id` (`not_found` when absent or expired); returns it. */
export function deleteSnapshot(project: ProjectRec, id: string, now: number): SnapshotRec {
  const snapshot = findSnapshot(project, id, now);
  project.snapshots.delete(snapshot.id);
  return snapshot;
}

/** Replaces a branch's backup schedule (a copy of `schedule`); returns a copy of the stored one. */
export function setBackupSchedule(world: World, branch: BranchRec, schedule: BackupScheduleEntry[]): BackupScheduleEntry[] {
  branch.backupSchedule = structuredClone(schedule);
  branch.updatedAt = world.clock.now();
  return structuredClone(branch.backupSchedule);
}

/**
 * Restores a snapshot into a new branch (child of the snapshot's source branch, or of the default
 * branch once the source is gone) holding the snapshot's roles and databases. The branch waits for
 * `finalize_restore` to take over `targetBranchId` (default: the source branch) unless `finalize`.
 * Refused while the project is locked; starts the new branch's `create_branch`.
 */
export function restoreSnapshot(
  world: World,
  project: ProjectRec,
  snapshot: SnapshotRec,
  input: { name?: string; targetBranchId?: string; finalize?: boolean },
  shouldFail?: OperationFailureHook,
): { branch: BranchRec; replaced?: BranchRec; operations: OperationRec[] } {
  requireUnlocked(project);
  const targetId = input.targetBranchId ?? snapshot.sourceBranchId;
  const target = project.branches.get(targetId);
  if (input.targetBranchId !== undefined && target === undefined) throw new RuleError("not_found", `target branch ${targetId} not found in project ${project.id}`, { field: "target_branch_id" });
  const name = input.name ?? `${snapshot.name} (restored)`;
  if (nameTaken(project, name)) throw new RuleError("conflict", `branch "${name}" already exists in project ${project.id}; give another name`, { field: "name", code: "already_exists" });
  const parent = project.branches.get(snapshot.sourceBranchId) ?? world.defaultBranch(project);
  const branch = newBranchRecord(world, project, { name, ...(parent !== undefined ? { parent } : {}), parentTimestamp: snapshot.timestamp, parentLsn: snapshot.lsn, initSource: "parent-data", state: "init" });
  const content = captureDatabases(snapshot.content);
  branch.roles = content.roles;
  branch.databases = content.databases;
  if (target !== undefined) branch.pendingRestore = { snapshotId: snapshot.id, targetBranchId: target.id };
  const replaced = target !== undefined && input.finalize === true ? takeOverTarget(world, project, branch, {}) : undefined;
  const specs = [createBranchSpec(world, branch), ...(replaced !== undefined ? restartSpecs(world, project, branch) : [])];
  return { branch, ...(replaced !== undefined ? { replaced } : {}), operations: startOperations(world, project, specs, shouldFail) };
}

/**
 * Completes a snapshot restore: the target branch's computes move to the restored branch, which
 * takes the target's name (and default flag); the target keeps `name`, else `<name>_old_<time>`.
 * The moved computes that were active restart onto the restored branch (`suspend_compute`, then
 * `start_compute`). Refused while the project is locked.
 */
export function finalizeRestore(world: World, project: ProjectRec, branch: BranchRec, input: { name?: string }, shouldFail?: OperationFailureHook): { replaced: BranchRec; operations: OperationRec[] } {
  const replaced = takeOverTarget(world, project, branch, input);
  return { replaced, operations: startOperations(world, project, restartSpecs(world, project, branch), shouldFail) };
}

/** The record changes of {@link finalizeRestore}; returns the replaced target branch. */
function takeOverTarget(world: World, project: ProjectRec, branch: BranchRec, input: { name?: string }): BranchRec {
  requireUnlocked(project);
  const pending = branch.pendingRestore;
  if (pending === undefined) throw new RuleError("unprocessable", `branch ${branch.id} has no restore to finalize; restore a snapshot into it first (POST /projects/${project.id}/snapshots/{snapshot_id}/restore)`);
  const target = project.branches.get(pending.targetBranchId);
  if (target === undefined) throw new RuleError("not_found", `branch ${pending.targetBranchId}, the restore's target, no longer exists; the restored branch ${branch.id} stays as it is`);
  const now = world.clock.now();
  const oldName = input.name ?? `${target.name}_old_${new Date(now).toISOString().replace(/[-:.]/g, "")}`;
  if (oldName !== target.name && nameTaken(project, oldName)) throw new RuleError("conflict", `branch "${oldName}" already exists in project ${project.id}; give another name`, { field: "name", code: "already_exists" });
  for (const endpoint of project.endpoints.values()) {
    if (endpoint.branchId !== target.id) continue;
    endpoint.branchId = branch.id;
    endpoint.updatedAt = now;
  }
  const targetName = target.name;
  target.name = oldName;
  branch.name = targetName;
  if (target.isDefault) {
    target.isDefault = false;
    branch.isDefault = true;
  }
  delete branch.pendingRestore;
  branch.lastResetAt = now;
  target.updatedAt = now;
  branch.updatedAt = now;
  return target;
}

/** Input of {@link restoreBranch}. */
export interface RestoreBranchInput {
  /** The branch restored from (`not_found` when the project has none of that id). */
  sourceBranchId: string;
  /** The point of the source's history (validated; records are restored as they are). */
  timestamp?: number;
  lsn?: string;
  /** Keep the branch's state before the restore as a new branch of this name. */
  preserveUnderName?: string;
}

/**
 * Restores `target` from `input.source` (itself for a point in time): its roles and databases
 * become copies of the source's, its endpoints take the compute settings of the source's endpoint
 * of the same type. Refused while the project is locked. Starts the preserved branch's
 * `create_branch` (when `preserveUnderName` is given) and restarts the target's active computes
 * onto the restored state.
 */
export function restoreBranch(world: World, project: ProjectRec, target: BranchRec, input: RestoreBranchInput, shouldFail?: OperationFailureHook): { preserved?: BranchRec; operations: OperationRec[] } {
  const now = world.clock.now();
  const source = project.branches.get(input.sourceBranchId);
  if (source === undefined) throw new RuleError("not_found", `source branch ${input.sourceBranchId} not found in project ${project.id}`);
  requireUnlocked(project);
  const self = source.id === target.id;
  if (input.timestamp !== undefined && input.lsn !== undefined) throw new RuleError("invalid", "give source_lsn or source_timestamp, not both", { field: "source_timestamp" });
  if (self && input.timestamp === undefined && input.lsn === undefined) {
    throw new RuleError("invalid", `restoring branch ${target.id} from itself needs source_timestamp or source_lsn (a point in its history)`, { field: "source_branch_id" });
  }
  if (input.timestamp !== undefined) checkPointInTime(project, source, input.timestamp, "source_timestamp", now);
  const hasChildren = [...project.branches.values()].some((b) => b.parentId === target.id);
  if (hasChildren && input.preserveUnderName === undefined) {
    throw new RuleError("unprocessable", `branch ${target.id} has child branches; give preserve_under_name to keep its current state as a new branch`, { field: "preserve_under_name" });
  }
  if (input.preserveUnderName !== undefined && nameTaken(project, input.preserveUnderName)) {
    throw new RuleError("conflict", `branch "${input.preserveUnderName}" already exists in project ${project.id}; choose another preserve_under_name`, { field: "preserve_under_name", code: "already_exists" });
  }
  let preserved: BranchRec | undefined;
  if (input.preserveUnderName !== undefined) {
    const parent = target.parentId !== undefined ? project.branches.get(target.parentId) : undefined;
    preserved = newBranchRecord(world, project, { name: input.preserveUnderName, ...(parent !== undefined ? { parent } : {}), initSource: "parent-data" });
    const before = captureDatabases(target);
    preserved.roles = before.roles;
    preserved.databases = before.databases;
  }
  if (!self) {
    const content = captureDatabases(source);
    target.roles = content.roles;
    target.databases = content.databases;
    copyComputeSettings(project, source, target, now);
  }
  target.lastResetAt = now;
  target.updatedAt = now;
  const specs = [...(preserved !== undefined ? [createBranchSpec(world, preserved)] : []), ...restartSpecs(world, project, target)];
  return { ...(preserved !== undefined ? { preserved } : {}), operations: startOperations(world, project, specs, shouldFail) };
}

/** A restored branch's active computes restart onto the restored state. */
function restartSpecs(world: World, project: ProjectRec, branch: BranchRec): OperationSpec[] {
  return [...project.endpoints.values()]
    .filter((e) => e.branchId === branch.id && e.currentState === "active")
    .flatMap((ep): OperationSpec[] => [
      { action: "suspend_compute", branchId: branch.id, endpointId: ep.id, onFinish: (failed) => finishSuspend(world, ep, failed) },
      startComputeSpec(world, ep),
    ]);
}

function copyComputeSettings(project: ProjectRec, source: BranchRec, target: BranchRec, now: number): void {
  const endpoints = [...project.endpoints.values()];
  for (const endpoint of endpoints.filter((e) => e.branchId === target.id)) {
    const from = endpoints.find((e: EndpointRec) => e.branchId === source.id && e.type === endpoint.type);
    if (from === undefined) continue;
    endpoint.minCu = from.minCu;
    endpoint.maxCu = from.maxCu;
    endpoint.suspendTimeoutSeconds = from.suspendTimeoutSeconds;
    endpoint.settings = structuredClone(from.settings);
    endpoint.updatedAt = now;
  }
}
