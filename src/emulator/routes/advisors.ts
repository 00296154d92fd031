/**
 * Advisors: the seeded issues of one branch and database,
 * filtered by `category` and `min_severity` (WARN returns WARN and ERROR, not INFO).
 */
import { Hono } from "hono";
import { AdvisorQuerySchema } from "../../api/wire/index.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { checkId, visibleProject } from "../http/scope.js";
import { readQuery } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";

const SEVERITY_RANK: Readonly<Record<string, number>> = Object.freeze({ INFO: 1, WARN: 2, ERROR: 3 });

/** Routes of the advisors group. */
export function advisorRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/projects/:project_id/advisors", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, AdvisorQuerySchema);
    if (q.branch_id !== undefined) checkId("branch_id", q.branch_id);
    const branch = q.branch_id !== undefined ? project.branches.get(q.branch_id) : world.defaultBranch(project);
    if (branch === undefined) throw notFound(`branch ${q.branch_id ?? "(default)"} not found in project ${project.id}; pass a branch id (br-…)`);
    let database = q.database_name;
    if (database === undefined) {
      if (branch.databases.size > 1) {
        throw badRequest(`branch ${branch.id} has ${branch.databases.size} databases; pass database_name`, [{ path: "database_name", message: "required when the branch has several databases" }]);
      }
      database = [...branch.databases.keys()][0];
    }
    if (database === undefined || !branch.databases.has(database)) throw notFound(`database "${database ?? "(none)"}" not found on branch ${branch.id}`);
    if (!branch.dataApi.has(database)) {
      throw conflict(`advisors need the data API on database "${database}" of branch ${branch.id}; enable it with POST …/branches/${branch.id}/data-api/${database}`, "conflict");
    }
    const min = SEVERITY_RANK[q.min_severity ?? "INFO"] ?? 1;
    const issues = project.advisorIssues.filter(
      (i) => i.branchId === branch.id && i.database === database && (q.category === undefined || i.category === q.category) && (SEVERITY_RANK[i.severity] ?? 0) >= min,
    );
    return c.json({
      issues: issues.map((i) => ({
        id: i.id,
        title: i.title,
        severity: i.severity,
        category: i.category,
        description: i.description,
        ...(i.remediation !== undefined ? { remediation: i.remediation } : {}),
        ...(i.metadata !== undefined ? { metadata: i.metadata } : {}),
      })),
    });
  });

  return r;
}
