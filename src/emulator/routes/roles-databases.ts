/**
 * Roles, databases and `connection_uri`: parse the wire body, call the domain
 * functions of `engine/roles-databases.ts` (each mutation runs one `apply_config` there), render.
 */
import { Hono, type Context } from "hono";
import { ConnectionUriQuerySchema, DatabaseCreateRequestSchema, DatabaseUpdateRequestSchema, RoleCreateRequestSchema } from "../../api/wire/index.js";
import {
  connectionTarget,
  createDatabase,
  createRole,
  deleteDatabase,
  deleteRole,
  findDatabase,
  findRole,
  resetRolePassword,
  revealRolePassword,
  updateDatabase,
  type BranchScope,
} from "../engine/roles-databases.js";
import type { EmulatorEnv } from "../http/env.js";
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
  const changeScope = (c: Context<EmulatorEnv>): BranchScope => ({ world: rt.world, ...scope(c), shouldFail: rt.shouldFailOperation });
  const roleOf = (c: Context<EmulatorEnv>, branch: BranchRec): RoleRec => findRole(branch, c.req.param("role_name") ?? "");
  const databaseOf = (c: Context<EmulatorEnv>, branch: BranchRec): DatabaseRec => findDatabase(branch, c.req.param("database_name") ?? "");

  r.get(`${base}/roles`, (c) => {
    const { branch } = scope(c);
    return c.json({ roles: [...branch.roles.values()].map((role) => roleView(branch.id, role)) });
  });

  r.post(`${base}/roles`, async (c) => {
    const s = changeScope(c);
    const { role: input } = await readJson(c, RoleCreateRequestSchema);
    const { record, operations } = createRole(s, { name: input.name, ...(input.no_login !== undefined ? { noLogin: input.no_login } : {}) });
    return c.json({ role: roleView(s.branch.id, record, true), operations: operations.map(operationView) }, 201);
  });

  r.get(`${base}/roles/:role_name`, (c) => {
    const { branch } = scope(c);
    return c.json({ role: roleView(branch.id, roleOf(c, branch)) });
  });

  r.delete(`${base}/roles/:role_name`, (c) => {
    const s = changeScope(c);
    const { record, operations } = deleteRole(s, roleOf(c, s.branch));
    return c.json({ role: roleView(s.branch.id, record), operations: operations.map(operationView) });
  });

  r.post(`${base}/roles/:role_name/reset_password`, (c) => {
    const s = changeScope(c);
    const { record, operations } = resetRolePassword(s, roleOf(c, s.branch));
    return c.json({ role: roleView(s.branch.id, record, true), operations: operations.map(operationView) });
  });

  r.get(`${base}/roles/:role_name/reveal_password`, (c) => {
    const { project, branch } = scope(c);
    return c.json({ password: revealRolePassword(project, roleOf(c, branch)) });
  });

  r.get(`${base}/databases`, (c) => {
    const { branch } = scope(c);
    return c.json({ databases: [...branch.databases.values()].map((d) => databaseView(branch.id, d)) });
  });

  r.post(`${base}/databases`, async (c) => {
    const s = changeScope(c);
    const { database: input } = await readJson(c, DatabaseCreateRequestSchema);
    const { record, operations } = createDatabase(s, { name: input.name, ownerName: input.owner_name });
    return c.json({ database: databaseView(s.branch.id, record), operations: operations.map(operationView) }, 201);
  });

  r.get(`${base}/databases/:database_name`, (c) => {
    const { branch } = scope(c);
    return c.json({ database: databaseView(branch.id, databaseOf(c, branch)) });
  });

  r.patch(`${base}/databases/:database_name`, async (c) => {
    const s = changeScope(c);
    const db = databaseOf(c, s.branch);
    const { database: input } = await readJson(c, DatabaseUpdateRequestSchema);
    const { record, operations } = updateDatabase(s, db, { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.owner_name !== undefined ? { ownerName: input.owner_name } : {}) });
    return c.json({ database: databaseView(s.branch.id, record), operations: operations.map(operationView) });
  });

  r.delete(`${base}/databases/:database_name`, (c) => {
    const s = changeScope(c);
    const { record, operations } = deleteDatabase(s, databaseOf(c, s.branch));
    return c.json({ database: databaseView(s.branch.id, record), operations: operations.map(operationView) });
  });

  r.get("/projects/:project_id/connection_uri", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, ConnectionUriQuerySchema);
    const { endpoint, role } = connectionTarget(world, project, q);
    return c.json({ uri: connectionUri(world, project, endpoint, role, q.database_name, q.pooled ?? false) });
  });

  return r;
}
