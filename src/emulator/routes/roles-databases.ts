/** Roles, databases and `connection_uri` (api.md §7); every mutation runs one `apply_config`. */
import { Hono, type Context } from "hono";
import { ConnectionUriQuerySchema, DatabaseCreateRequestSchema, DatabaseUpdateRequestSchema, RoleCreateRequestSchema } from "../../api/wire/index.js";
import { newRole } from "../engine/lifecycle.js";
import { requireUnlocked, startOperations } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, conflict, notFound } from "../http/errors.js";
import { branchFromPath, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { databaseView, operationView, roleView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, DatabaseRec, ProjectRec, RoleRec } from "../store/records.js";
import { connectionUri } from "./shared.js";

/** Routes of the role, database and connection-URI group. */
export function roleDatabaseRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c);
  const roleOf = (c: Context<EmulatorEnv>, branch: BranchRec): RoleRec => {
    const name = c.req.param("role_name") ?? "";
    const role = branch.roles.get(name);
    if (role === undefined) throw notFound(`role "${name}" not found on branch ${branch.id}`);
    return role;
  };
  const databaseOf = (c: Context<EmulatorEnv>, branch: BranchRec): DatabaseRec => {
    const name = c.req.param("database_name") ?? "";
    const db = branch.databases.get(name);
    if (db === undefined) throw notFound(`database "${name}" not found on branch ${branch.id}`);
    return db;
  };
  const applyConfig = (project: ProjectRec, branch: BranchRec) => startOperations(rt.world, project, [{ action: "apply_config", branchId: branch.id }], rt.shouldFailOperation).map(operationView);

  r.get(`${base}/roles`, (c) => {
    const { branch } = scope(c);
    return c.json({ roles: [...branch.roles.values()].map((role) => roleView(branch.id, role)) });
  });

  r.post(`${base}/roles`, async (c) => {
    const { project, branch } = scope(c);
    const { role: input } = await readJson(c, RoleCreateRequestSchema);
    requireUnlocked(project);
    if (branch.roles.has(input.name)) throw conflict(`role "${input.name}" already exists on branch ${branch.id}`, "already_exists");
    const role = newRole(rt.world, input.name, { noLogin: input.no_login ?? false });
    branch.roles.set(role.name, role);
    return c.json({ role: roleView(branch.id, role, true), operations: applyConfig(project, branch) }, 201);
  });

  r.get(`${base}/roles/:role_name`, (c) => {
    const { branch } = scope(c);
    return c.json({ role: roleView(branch.id, roleOf(c, branch)) });
  });

  r.delete(`${base}/roles/:role_name`, (c) => {
    const { project, branch } = scope(c);
    const role = roleOf(c, branch);
    requireUnlocked(project);
    const owned = [...branch.databases.values()].find((d) => d.ownerName === role.name);
    if (owned !== undefined) throw conflict(`role "${role.name}" owns database "${owned.name}" on branch ${branch.id}; change the owner or delete the database first`, "in_use");
    branch.roles.delete(role.name);
    return c.json({ role: roleView(branch.id, role), operations: applyConfig(project, branch) });
  });

  r.post(`${base}/roles/:role_name/reset_password`, (c) => {
    const { project, branch } = scope(c);
    const role = roleOf(c, branch);
    requireUnlocked(project);
    role.password = rt.world.ids.base62(24);
    role.updatedAt = rt.world.clock.now();
    return c.json({ role: roleView(branch.id, role, true), operations: applyConfig(project, branch) });
  });

  r.get(`${base}/roles/:role_name/reveal_password`, (c) => {
    const { project, branch } = scope(c);
    const role = roleOf(c, branch);
    if (!project.storePasswords) {
      throw new EmulatorHttpError(412, { code: "passwords_not_stored", message: `project ${project.id} does not store passwords (store_passwords is false); reset the password to get a new one` });
    }
    return c.json({ password: role.password });
  });

  r.get(`${base}/databases`, (c) => {
    const { branch } = scope(c);
    return c.json({ databases: [...branch.databases.values()].map((d) => databaseView(branch.id, d)) });
  });

  r.post(`${base}/databases`, async (c) => {
    const { project, branch } = scope(c);
    const { database: input } = await readJson(c, DatabaseCreateRequestSchema);
    requireUnlocked(project);
    if (branch.databases.has(input.name)) throw conflict(`database "${input.name}" already exists on branch ${branch.id}`, "already_exists");
    if (!branch.roles.has(input.owner_name)) throw notFound(`database.owner_name: role "${input.owner_name}" not found on branch ${branch.id}; create the role first`);
    const now = rt.world.clock.now();
    const db: DatabaseRec = { id: rt.world.newDatabaseId(), name: input.name, ownerName: input.owner_name, createdAt: now, updatedAt: now };
    branch.databases.set(db.name, db);
    return c.json({ database: databaseView(branch.id, db), operations: applyConfig(project, branch) }, 201);
  });

  r.get(`${base}/databases/:database_name`, (c) => {
    const { branch } = scope(c);
    return c.json({ database: databaseView(branch.id, databaseOf(c, branch)) });
  });

  r.patch(`${base}/databases/:database_name`, async (c) => {
    const { project, branch } = scope(c);
    const db = databaseOf(c, branch);
    const { database: input } = await readJson(c, DatabaseUpdateRequestSchema);
    requireUnlocked(project);
    if (input.name !== undefined && input.name !== db.name && branch.databases.has(input.name)) throw conflict(`database "${input.name}" already exists on branch ${branch.id}`, "already_exists");
    if (input.owner_name !== undefined && !branch.roles.has(input.owner_name)) throw notFound(`database.owner_name: role "${input.owner_name}" not found on branch ${branch.id}`);
    if (input.name !== undefined && input.name !== db.name) {
      branch.databases.delete(db.name);
      db.name = input.name;
      branch.databases.set(db.name, db);
    }
    if (input.owner_name !== undefined) db.ownerName = input.owner_name;
    db.updatedAt = rt.world.clock.now();
    return c.json({ database: databaseView(branch.id, db), operations: applyConfig(project, branch) });
  });

  r.delete(`${base}/databases/:database_name`, (c) => {
    const { project, branch } = scope(c);
    const db = databaseOf(c, branch);
    requireUnlocked(project);
    branch.databases.delete(db.name);
    branch.dataApi.delete(db.name);
    return c.json({ database: databaseView(branch.id, db), operations: applyConfig(project, branch) });
  });

  r.get("/projects/:project_id/connection_uri", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, ConnectionUriQuerySchema);
    const branch = q.branch_id !== undefined ? project.branches.get(q.branch_id) : world.defaultBranch(project);
    if (branch === undefined) throw notFound(`branch ${q.branch_id ?? "(default)"} not found in project ${project.id}`);
    const endpoint =
      q.endpoint_id !== undefined
        ? project.endpoints.get(q.endpoint_id)
        : [...project.endpoints.values()].find((e) => e.branchId === branch.id && e.type === "read_write");
    if (endpoint === undefined || endpoint.branchId !== branch.id) throw notFound(`branch ${branch.id} has no ${q.endpoint_id !== undefined ? `endpoint ${q.endpoint_id}` : "read_write endpoint"}; add a compute endpoint first`);
    const role = branch.roles.get(q.role_name);
    if (role === undefined) throw notFound(`role "${q.role_name}" not found on branch ${branch.id}`);
    if (!branch.databases.has(q.database_name)) throw notFound(`database "${q.database_name}" not found on branch ${branch.id}`);
    return c.json({ uri: connectionUri(world, project, endpoint, role, q.database_name, q.pooled ?? false) });
  });

  return r;
}
