/**
 * Roles and databases of a branch: every mutation needs the project unlocked and
 * starts one `apply_config`. A role that owns a database cannot be deleted; a database's owner
 * must be a role of the branch. Also resolves what a `connection_uri` names.
 */
import type { ConnectionUriQuery } from "../../api/wire/index.js";
import type { BranchRec, DatabaseRec, EndpointRec, OperationRec, ProjectRec, RoleRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { newRole } from "./lifecycle.js";
import { requireUnlocked, startOperations, type OperationFailureHook } from "./operations.js";
import { RuleError } from "./rule-error.js";

/** Where a change happens: the project, its branch, and whether the operation should fail. */
export interface BranchScope {
  world: World;
  project: ProjectRec;
  branch: BranchRec;
  shouldFail: OperationFailureHook;
}

/** A role or database and the `apply_config` its change started. */
export interface Applied<T> {
  record: T;
  operations: OperationRec[];
}

function applyConfig<T>(scope: BranchScope, record: T): Applied<T> {
  return { record, operations: startOperations(scope.world, scope.project, [{ action: "apply_config", branchId: scope.branch.id }], scope.shouldFail) };
}

/** The branch's role `name`, or `not_found`. */
export function findRole(branch: BranchRec, name: string): RoleRec {
  const role = branch.roles.get(name);
  if (role === undefined) throw new RuleError("not_found", `role "${name}" not found on branch ${branch.id}`);
  return role;
}

/** The branch's database `name`, or `not_found`. */
export function findDatabase(branch: BranchRec, name: string): DatabaseRec {
  const db = branch.databases.get(name);
  if (db === undefined) throw new RuleError("not_found", `database "${name}" not found on branch ${branch.id}`);
  return db;
}

/** Creates a role with a generated password (names are unique per branch). */
export function createRole(scope: BranchScope, input: { name: string; noLogin?: boolean }): Applied<RoleRec> {
  const { world, project, branch } = scope;
  requireUnlocked(project);
  if (branch.roles.has(input.name)) throw new RuleError("conflict", `role "${input.name}" already exists on branch ${branch.id}`, { code: "already_exists" });
  const role = newRole(world, input.name, { noLogin: input.noLogin ?? false });
  branch.roles.set(role.name, role);
  return applyConfig(scope, role);
}

/** Deletes a role; refused (`in_use`) while it owns a database. */
export function deleteRole(scope: BranchScope, role: RoleRec): Applied<RoleRec> {
  const { project, branch } = scope;
  requireUnlocked(project);
  const owned = [...branch.databases.values()].find((d) => d.ownerName === role.name);
  if (owned !== undefined) throw new RuleError("conflict", `role "${role.name}" owns database "${owned.name}" on branch ${branch.id}; change the owner or delete the database first`, { code: "in_use" });
  branch.roles.delete(role.name);
  return applyConfig(scope, role);
}

/** Gives a role a new generated password. */
export function resetRolePassword(scope: BranchScope, role: RoleRec): Applied<RoleRec> {
  requireUnlocked(scope.project);
  role.password = scope.world.ids.base62(24);
  role.updatedAt = scope.world.clock.now();
  return applyConfig(scope, role);
}

/** A role's password; refused (412 `passwords_not_stored`) when the project does not store passwords. */
export function revealRolePassword(project: ProjectRec, role: RoleRec): string {
  if (!project.storePasswords) {
    throw new RuleError("precondition_failed", `project ${project.id} does not store passwords (store_passwords is false); reset the password to get a new one`, { code: "passwords_not_stored" });
  }
  return role.password;
}

function requireFreeDatabaseName(branch: BranchRec, name: string): void {
  if (branch.databases.has(name)) throw new RuleError("conflict", `database "${name}" already exists on branch ${branch.id}`, { code: "already_exists" });
}

/** Creates a database owned by a role of the branch. */
export function createDatabase(scope: BranchScope, input: { name: string; ownerName: string }): Applied<DatabaseRec> {
  const { world, project, branch } = scope;
  requireUnlocked(project);
  requireFreeDatabaseName(branch, input.name);
  if (!branch.roles.has(input.ownerName)) throw new RuleError("not_found", `database.owner_name: role "${input.ownerName}" not found on branch ${branch.id}; create the role first`);
  const now = world.clock.now();
  const db: DatabaseRec = { id: world.newDatabaseId(), name: input.name, ownerName: input.ownerName, createdAt: now, updatedAt: now };
  branch.databases.set(db.name, db);
  return applyConfig(scope, db);
}

/** Renames a database and/or changes its owner. */
export function updateDatabase(scope: BranchScope, db: DatabaseRec, input: { name?: string; ownerName?: string }): Applied<DatabaseRec> {
  const { world, project, branch } = scope;
  requireUnlocked(project);
  const rename = input.name !== undefined && input.name !== db.name ? input.name : undefined;
  if (rename !== undefined) requireFreeDatabaseName(branch, rename);
  if (input.ownerName !== undefined && !branch.roles.has(input.ownerName)) throw new RuleError("not_found", `database.owner_name: role "${input.ownerName}" not found on branch ${branch.id}`);
  if (rename !== undefined) {
    branch.databases.delete(db.name);
    db.name = rename;
    branch.databases.set(db.name, db);
  }
  if (input.ownerName !== undefined) db.ownerName = input.ownerName;
  db.updatedAt = world.clock.now();
  return applyConfig(scope, db);
}

/** Deletes a database with its Data API. */
export function deleteDatabase(scope: BranchScope, db: DatabaseRec): Applied<DatabaseRec> {
  requireUnlocked(scope.project);
  scope.branch.databases.delete(db.name);
  scope.branch.dataApi.delete(db.name);
  return applyConfig(scope, db);
}

/** What a connection URI names: the branch (default: the project's default), its endpoint (default: its read_write one) and role; the database must exist. */
export function connectionTarget(world: World, project: ProjectRec, q: ConnectionUriQuery): { branch: BranchRec; endpoint: EndpointRec; role: RoleRec } {
  const branch = q.branch_id !== undefined ? project.branches.get(q.branch_id) : world.defaultBranch(project);
  if (branch === undefined) throw new RuleError("not_found", `branch ${q.branch_id ?? "(default)"} not found in project ${project.id}`);
  const endpoint = q.endpoint_id !== undefined ? project.endpoints.get(q.endpoint_id) : [...project.endpoints.values()].find((e) => e.branchId === branch.id && e.type === "read_write");
  if (endpoint === undefined || endpoint.branchId !== branch.id) {
    throw new RuleError("not_found", `branch ${branch.id} has no ${q.endpoint_id !== undefined ? `endpoint ${q.endpoint_id}` : "read_write endpoint"}; add a compute endpoint first`);
  }
  const role = findRole(branch, q.role_name);
  findDatabase(branch, q.database_name);
  return { branch, endpoint, role };
}
