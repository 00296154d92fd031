/** Branches: list, count, create, get, patch, delete, set_as_default, branch endpoints. */
import { Hono } from "hono";
import { BranchCountQuerySchema, BranchCreateRequestSchema, BranchListQuerySchema, BranchUpdateRequestSchema, LsnSchema } from "../../api/wire/index.js";
import { createBranch, deleteBranch, futureTime, setDefaultBranch, updateBranch } from "../engine/branches.js";
import { checkComputeRange } from "../engine/endpoints.js";
import { requireUnlocked } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest } from "../http/errors.js";
import { checkId, visibleBranch, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { branchView, databaseView, endpointView, operationView, roleView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec } from "../store/records.js";
import { connectionUriEntry, nextPage } from "./shared.js";

function annotationOf(b: BranchRec): { object: { type: string; id: string }; value: Record<string, string> } {
  return { object: { type: "console/branch", id: b.id }, value: { ...b.annotation } };
}

/** Routes of the branch group. */
export function branchRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches";

  r.get(base, (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, BranchListQuerySchema);
    const sortBy = q.sort_by ?? "updated_at";
    const order = q.sort_order ?? "desc";
    const search = q.search?.toLowerCase();
    const items = [...project.branches.values()].filter((b) => search === undefined || b.name.toLowerCase().includes(search) || b.id.includes(search));
    const keyOf = (b: BranchRec): string | number => (sortBy === "name" ? b.name : sortBy === "created_at" ? b.createdAt : b.updatedAt);
    items.sort((a, b) => {
      const ka = keyOf(a);
      const kb = keyOf(b);
      const cmp = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return order === "asc" ? cmp : -cmp;
    });
    const { page, next } = nextPage(items, q.cursor, q.limit ?? 10000, `${sortBy}:${order}`);
    return c.json({
      branches: page.map((b) => branchView(b)),
      annotations: Object.fromEntries(page.map((b) => [b.id, annotationOf(b)])),
      pagination: next !== undefined ? { next, cursor: next, sort_by: sortBy, sort_order: order } : { sort_by: sortBy, sort_order: order },
    });
  });

  r.get(`${base}/count`, (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, BranchCountQuerySchema);
    const search = q.search?.toLowerCase();
    const count = [...project.branches.values()].filter((b) => search === undefined || b.name.toLowerCase().includes(search) || b.id.includes(search)).length;
    return c.json({ count });
  });

  r.post(base, async (c) => {
    const world = rt.world;
    const now = world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const body = await readJson(c, BranchCreateRequestSchema, { optional: true });
    const input = body.branch ?? {};
    const endpoints = body.endpoints ?? [];
    if (endpoints.filter((e) => e.type === "read_write").length > 1) {
      throw badRequest("endpoints: a branch can have at most one read_write endpoint", [{ path: "endpoints", message: "at most one read_write endpoint" }]);
    }
    if (input.parent_lsn !== undefined && !LsnSchema.safeParse(input.parent_lsn).success) {
      throw badRequest(`branch.parent_lsn "${input.parent_lsn.slice(0, 40)}" is not an LSN; write it as the server does, e.g. 0/1A2B3C4`, [{ path: "branch.parent_lsn", message: "must look like 0/1A2B3C4" }]);
    }
    endpoints.forEach((e, i) => {
      if (e.autoscaling_limit_min_cu !== undefined && e.autoscaling_limit_max_cu !== undefined) checkComputeRange(e.autoscaling_limit_min_cu, e.autoscaling_limit_max_cu, `endpoints.${i}`);
    });
    const expiresAt = input.expires_at !== undefined ? futureTime(input.expires_at, "branch.expires_at", now) : undefined;
    requireUnlocked(project);
    const created = createBranch(
      world,
      project,
      {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.parent_id !== undefined ? { parentId: input.parent_id } : {}),
        ...(input.parent_timestamp !== undefined ? { parentTimestamp: Date.parse(input.parent_timestamp) } : {}),
        ...(input.parent_lsn !== undefined ? { parentLsn: input.parent_lsn } : {}),
        ...(input.protected !== undefined ? { protected: input.protected } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(input.init_source !== undefined ? { initSource: input.init_source } : {}),
        ...(body.annotation_value !== undefined ? { annotation: body.annotation_value } : {}),
        endpoints,
      },
      rt.shouldFailOperation,
    );
    const { branch } = created;
    const roles = [...branch.roles.values()];
    const databases = [...branch.databases.values()];
    const rw = created.endpoints.find((e) => e.type === "read_write");
    const [onlyRole] = roles;
    const [onlyDb] = databases;
    return c.json(
      {
        branch: branchView(branch),
        endpoints: created.endpoints.map((e) => endpointView(world, project, e, rt.endpointHosts(project, e))),
        operations: created.operations.map(operationView),
        roles: roles.map((role) => roleView(branch.id, role)),
        databases: databases.map((d) => databaseView(branch.id, d)),
        ...(roles.length === 1 && databases.length === 1 && rw && onlyRole && onlyDb ? { connection_uris: [connectionUriEntry(world, project, rw, onlyRole, onlyDb.name, rt.endpointHosts(project, rw))] } : {}),
      },
      201,
    );
  });

  r.get(`${base}/:branch_id`, (c) => {
    const world = rt.world;
    world.now();
    const { branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    return c.json({ branch: branchView(branch), annotation: annotationOf(branch) });
  });

  r.patch(`${base}/:branch_id`, async (c) => {
    const world = rt.world;
    const now = world.now();
    const { project, branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    const { branch: input } = await readJson(c, BranchUpdateRequestSchema);
    const expiresAt = input.expires_at === undefined || input.expires_at === null ? input.expires_at : futureTime(input.expires_at, "branch.expires_at", now);
    requireUnlocked(project);
    updateBranch(world, project, branch, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.protected !== undefined ? { protected: input.protected } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    return c.json({ branch: branchView(branch), operations: [] });
  });

  r.delete(`${base}/:branch_id`, (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const branchId = c.req.param("branch_id");
    checkId("branch_id", branchId);
    const branch = project.branches.get(branchId);
    if (branch === undefined) return c.body(null, 204);
    requireUnlocked(project);
    const operations = deleteBranch(world, project, branch, rt.shouldFailOperation);
    return c.json({ branch: branchView(branch), operations: operations.map(operationView) });
  });

  r.post(`${base}/:branch_id/set_as_default`, (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    requireUnlocked(project);
    setDefaultBranch(world, project, branch);
    return c.json({ branch: branchView(branch), operations: [] });
  });

  r.get(`${base}/:branch_id/endpoints`, (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    const endpoints = [...project.endpoints.values()].filter((e) => e.branchId === branch.id);
    return c.json({ endpoints: endpoints.map((e) => endpointView(world, project, e, rt.endpointHosts(project, e))) });
  });

  return r;
}
