/**
 * Reads a client makes once a branch exists: a database's schema and the schema difference between
 * two branches. Schemas come from the runtime's schema
 * source: empty for record-only branches, the real catalog with `realDatabases`.
 */
import { Hono, type Context } from "hono";
import { BranchSchemaQuerySchema, CompareSchemaQuerySchema } from "../../api/wire/index.js";
import { checkPointInTime } from "../engine/restore.js";
import { schemaSql, unifiedDiff } from "../engine/schema-diff.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, notFound } from "../http/errors.js";
import { visibleBranch } from "../http/scope.js";
import { readQuery } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";

function requireDatabase(branch: BranchRec, database: string): void {
  if (!branch.databases.has(database)) throw notFound(`database "${database}" not found on branch ${branch.id}; pass db_name of one of its databases`);
}

/** Checks an optional point in time of a branch's history (the schema is read as it is now). */
function checkAt(project: ProjectRec, branch: BranchRec, timestamp: string | undefined, field: string, now: number): void {
  if (timestamp !== undefined) checkPointInTime(project, branch, Date.parse(timestamp), field, now);
}

/** Routes of the schema and log-field reads. */
export function branchSchemaRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id";
  const branchOf = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => visibleBranch(rt.world, c, c.req.param("project_id") ?? "", c.req.param("branch_id") ?? "");

  r.get(`${base}/schema`, async (c) => {
    const now = rt.world.now();
    const { project, branch } = branchOf(c);
    const q = readQuery(c, BranchSchemaQuerySchema);
    requireDatabase(branch, q.db_name);
    checkAt(project, branch, q.timestamp, "timestamp", now);
    const schema = await rt.schemaSource(project, branch, q.db_name);
    if (q.format === "json") return c.json({ json: { tables: schema.tables } });
    return c.json({ sql: schemaSql(schema) });
  });

  r.get(`${base}/compare_schema`, async (c) => {
    const now = rt.world.now();
    const { project, branch } = branchOf(c);
    const q = readQuery(c, CompareSchemaQuerySchema);
    const baseId = q.base_branch_id ?? branch.parentId;
    if (baseId === undefined) throw badRequest(`branch ${branch.id} has no parent; pass base_branch_id to compare it with another branch`, [{ path: "base_branch_id", message: "required for a branch without a parent" }]);
    const baseBranch = project.branches.get(baseId);
    if (baseBranch === undefined) throw notFound(`base branch ${baseId} not found in project ${project.id}`);
    requireDatabase(branch, q.db_name);
    requireDatabase(baseBranch, q.db_name);
    checkAt(project, branch, q.timestamp, "timestamp", now);
    checkAt(project, baseBranch, q.base_timestamp, "base_timestamp", now);
    const [before, after] = await Promise.all([rt.schemaSource(project, baseBranch, q.db_name), rt.schemaSource(project, branch, q.db_name)]);
    return c.json({ diff: unifiedDiff(schemaSql(before), schemaSql(after), { base: `${baseBranch.id}/${q.db_name}`, changed: `${branch.id}/${q.db_name}` }) });
  });

  return r;
}
