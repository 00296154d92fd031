/** Branches (api.md §5): list, count, create, get, patch, delete, set_as_default, branch endpoints. */
import { Hono } from "hono";
import { BranchCountQuerySchema, BranchCreateRequestSchema, BranchListQuerySchema, BranchUpdateRequestSchema } from "../../api/wire/index.js";
import { beginStart, finishStart, finishSuspend, newBranchRecord, newEndpointRecord, removeBranch, scheduleExpiry } from "../engine/lifecycle.js";
import { startOperations, type OperationSpec } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { isoTime } from "../engine/clock.js";
import { badRequest, conflict, forbidden, notFound, unprocessable } from "../http/errors.js";
import { checkId, requireUnlocked, visibleBranch, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { branchView, databaseView, endpointView, operationView, roleView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";
import { PLAN_LIMITS, type World } from "../store/world.js";
import { checkComputeRange, connectionUriEntry, nextPage } from "./shared.js";

/** An LSN as PostgreSQL writes it: two hex numbers separated by a slash. */
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

function annotationOf(b: BranchRec): { object: { type: string; id: string }; value: Record<string, string> } {
  return { object: { type: "console/branch", id: b.id }, value: { ...b.annotation } };
}

function parseFuture(value: string, path: string, now: number): number {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw badRequest(`${path} "${value}" is not an RFC 3339 timestamp`, [{ path, message: "must be an RFC 3339 timestamp" }]);
  if (at <= now) throw badRequest(`${path} ${value} is in the past; give a future time or null to clear it`, [{ path, message: "must be in the future" }]);
  return at;
}

function nameTaken(project: ProjectRec, name: string, except?: string): boolean {
  for (const b of project.branches.values()) if (b.name === name && b.id !== except) return true;
  return false;
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
    const expiresAt = input.expires_at !== undefined ? parseFuture(input.expires_at, "branch.expires_at", now) : undefined;
    if (input.parent_lsn !== undefined && !LSN.test(input.parent_lsn)) {
      throw badRequest(`branch.parent_lsn "${input.parent_lsn.slice(0, 40)}" is not an LSN; write it as the server does, e.g. 0/1A2B3C4`, [{ path: "branch.parent_lsn", message: "must look like 0/1A2B3C4" }]);
    }
    const parentTimestamp = input.parent_timestamp !== undefined ? Date.parse(input.parent_timestamp) : undefined;
    if (parentTimestamp !== undefined && parentTimestamp > now) throw unprocessable(`branch.parent_timestamp ${input.parent_timestamp} is in the future; give a past time within the history window`);
    endpoints.forEach((e, i) => {
      if (e.autoscaling_limit_min_cu !== undefined && e.autoscaling_limit_max_cu !== undefined) checkComputeRange(e.autoscaling_limit_min_cu, e.autoscaling_limit_max_cu, `endpoints.${i}`);
    });
    requireUnlocked(project);
    const parent = input.parent_id !== undefined ? project.branches.get(input.parent_id) : world.defaultBranch(project);
    if (parent === undefined) throw notFound(`parent branch ${input.parent_id ?? "(default)"} not found in project ${project.id}`);
    if (parentTimestamp !== undefined && parentTimestamp < Math.max(parent.createdAt, now - project.historyRetentionSeconds * 1000)) {
      throw unprocessable(`branch.parent_timestamp ${input.parent_timestamp} is before the history of branch ${parent.id} (it starts at ${isoTime(Math.max(parent.createdAt, now - project.historyRetentionSeconds * 1000))}); give a later time`);
    }
    if (input.name !== undefined && nameTaken(project, input.name)) throw conflict(`branch "${input.name}" already exists in project ${project.id}; choose another name`, "already_exists");
    const plan = world.planOf(project);
    const limits = PLAN_LIMITS[plan];
    if (project.branches.size >= limits.branchesPerProject) throw forbidden(`the ${plan} plan allows ${limits.branchesPerProject} branches per project; delete a branch or upgrade the plan`, "plan_limit_exceeded");
    if (input.protected === true && !limits.protectedBranches) throw forbidden(`protected branches are not available on the ${plan} plan`, "plan_limit_exceeded");
    const branch = newBranchRecord(world, project, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      parent,
      ...(parentTimestamp !== undefined ? { parentTimestamp } : {}),
      ...(input.parent_lsn !== undefined ? { parentLsn: input.parent_lsn } : {}),
      protected: input.protected ?? false,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      initSource: input.init_source ?? "parent-data",
      state: "init",
    });
    if (body.annotation_value !== undefined) branch.annotation = { ...body.annotation_value };
    const created = endpoints.map((e) => newEndpointRecord(world, project, branch.id, { ...e }));
    const specs: OperationSpec[] = [
      {
        action: "create_branch",
        branchId: branch.id,
        onFinish: () => {
          branch.currentState = "ready";
          branch.stateChangedAt = world.clock.now();
        },
      },
      ...created.map((ep): OperationSpec => ({ action: "start_compute", branchId: branch.id, endpointId: ep.id, onStart: () => beginStart(ep), onFinish: (failed) => finishStart(world, ep, failed) })),
    ];
    const ops = startOperations(world, project, specs, rt.shouldFailOperation);
    const roles = [...branch.roles.values()];
    const databases = [...branch.databases.values()];
    const rw = created.find((e) => e.type === "read_write");
    const [onlyRole] = roles;
    const [onlyDb] = databases;
    return c.json(
      {
        branch: branchView(branch),
        endpoints: created.map((e) => endpointView(world, project, e)),
        operations: ops.map(operationView),
        roles: roles.map((role) => roleView(branch.id, role)),
        databases: databases.map((d) => databaseView(branch.id, d)),
        ...(roles.length === 1 && databases.length === 1 && rw && onlyRole && onlyDb ? { connection_uris: [connectionUriEntry(world, project, rw, onlyRole, onlyDb.name)] } : {}),
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
    const expiresAt = input.expires_at === undefined || input.expires_at === null ? input.expires_at : parseFuture(input.expires_at, "branch.expires_at", now);
    requireUnlocked(project);
    if (input.name !== undefined && nameTaken(project, input.name, branch.id)) throw conflict(`branch "${input.name}" already exists in project ${project.id}; choose another name`, "already_exists");
    if (input.protected === true && !PLAN_LIMITS[world.planOf(project)].protectedBranches) throw forbidden(`protected branches are not available on the ${world.planOf(project)} plan`, "plan_limit_exceeded");
    if (input.name !== undefined) branch.name = input.name;
    if (input.protected !== undefined) branch.protected = input.protected;
    if (expiresAt === null) delete branch.expiresAt;
    else if (expiresAt !== undefined) {
      branch.expiresAt = expiresAt;
      scheduleExpiry(world, project, branch);
    }
    branch.updatedAt = now;
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
    if (branch.isDefault) throw conflict(`branch ${branch.id} is the project's default branch; set another branch as default before deleting it`, "in_use");
    if (branch.protected) throw conflict(`branch ${branch.id} is protected; unprotect it before deleting it`, "in_use");
    if ([...project.branches.values()].some((b) => b.parentId === branch.id)) throw conflict(`branch ${branch.id} has child branches; delete them first`, "in_use");
    const ops = startOperations(world, project, deleteSpecs(world, project, branch), rt.shouldFailOperation);
    const view = branchView(branch);
    removeBranch(world, project, branch);
    return c.json({ branch: view, operations: ops.map(operationView) });
  });

  r.post(`${base}/:branch_id/set_as_default`, async (c) => {
    const world = rt.world;
    const now = world.now();
    const { project, branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    requireUnlocked(project);
    for (const b of project.branches.values()) {
      if (b.isDefault && b.id !== branch.id) {
        b.isDefault = false;
        b.updatedAt = now;
      }
    }
    branch.isDefault = true;
    branch.updatedAt = now;
    return c.json({ branch: branchView(branch), operations: [] });
  });

  r.get(`${base}/:branch_id/endpoints`, (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = visibleBranch(world, c, c.req.param("project_id"), c.req.param("branch_id"));
    const endpoints = [...project.endpoints.values()].filter((e) => e.branchId === branch.id);
    return c.json({ endpoints: endpoints.map((e) => endpointView(world, project, e)) });
  });

  return r;
}

function deleteSpecs(world: World, project: ProjectRec, branch: BranchRec): OperationSpec[] {
  const specs: OperationSpec[] = [];
  for (const ep of project.endpoints.values()) {
    if (ep.branchId === branch.id && ep.currentState === "active") {
      specs.push({ action: "suspend_compute", branchId: branch.id, endpointId: ep.id, onFinish: (failed) => finishSuspend(world, ep, failed) });
    }
  }
  specs.push({ action: "delete_timeline", branchId: branch.id });
  return specs;
}
