/** Projects (api.md §3): list (also recoverable ones), shared, create, get, patch, delete and recover. */
import { Hono } from "hono";
import { ProjectCreateRequestSchema, ProjectRecoverRequestSchema, ProjectListQuerySchema, ProjectUpdateRequestSchema, SharedProjectListQuerySchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { checkComputeRange } from "../engine/endpoints.js";
import { beginStart, finishStart, newBranchRecord, newEndpointRecord, newProjectRecord, newRole } from "../engine/lifecycle.js";
import { type OperationSpec, requireUnlocked, startOperations } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { deleteProject, recoverProject } from "../engine/project-deletion.js";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.js";
import { requireRole, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { branchView, databaseView, endpointView, operationView, projectView, roleView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { ProjectRec } from "../store/records.js";
import { PLAN_LIMITS } from "../store/world.js";
import { connectionUriEntry, cursorPage } from "./shared.js";

/** Routes of the project group. */
export function projectRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/projects", (c) => {
    const world = rt.world;
    world.now();
    const q = readQuery(c, ProjectListQuerySchema);
    const principal = c.get("principal");
    if (q.org_id !== undefined) {
      if (principal.orgId !== undefined && principal.orgId !== q.org_id) throw forbidden(`this organization API key belongs to ${principal.orgId}; it cannot list projects of ${q.org_id}`);
      const org = world.orgs.get(q.org_id);
      if (principal.orgId === undefined && (org === undefined || !org.members.has(principal.userId))) throw notFound(`organization ${q.org_id} not found (or you are not a member)`);
    }
    const search = q.search?.toLowerCase();
    const now = world.clock.now();
    const items = [...world.projects.values()].filter((p) => {
      const deleted = p.deletedAt !== undefined;
      if (q.recoverable === true ? !deleted || (p.recoverableUntil ?? 0) <= now : deleted) return false;
      if (world.access(principal, { ...p, deletedAt: undefined }) !== "visible") return false;
      if (q.org_id !== undefined ? p.orgId !== q.org_id : principal.orgId === undefined && p.orgId !== undefined) return false;
      return search === undefined || p.name.toLowerCase().includes(search) || p.id.includes(search);
    });
    const { page, cursor } = cursorPage(items, (p) => p, q.cursor, q.limit ?? 10);
    return c.json({
      projects: page.map((p) => ({
        ...projectView(world, p, false),
        ...(p.deletedAt !== undefined ? { deleted_at: isoTime(p.deletedAt) } : {}),
        ...(p.recoverableUntil !== undefined ? { recoverable_until: isoTime(p.recoverableUntil) } : {}),
      })),
      pagination: cursor !== undefined ? { cursor } : {},
      applications: {},
      integrations: {},
    });
  });

  r.get("/projects/shared", (c) => {
    const world = rt.world;
    world.now();
    const q = readQuery(c, SharedProjectListQuerySchema);
    const principal = c.get("principal");
    const email = world.users.get(principal.userId)?.email.toLowerCase();
    const search = q.search?.toLowerCase();
    const items = principal.orgId !== undefined || email === undefined ? [] : [...world.projects.values()].filter((p) =>
      p.deletedAt === undefined &&
      p.permissions.some((perm) => perm.revokedAt === undefined && perm.email.toLowerCase() === email) &&
      (search === undefined || p.name.toLowerCase().includes(search) || p.id.includes(search)));
    const { page, cursor } = cursorPage(items, (p) => p, q.cursor, q.limit ?? 10);
    return c.json({ projects: page.map((p) => projectView(world, p, false)), pagination: cursor !== undefined ? { cursor } : {} });
  });

  r.post("/projects", async (c) => {
    const world = rt.world;
    world.now();
    const body = await readJson(c, ProjectCreateRequestSchema);
    const input = body.project;
    const principal = c.get("principal");
    const orgId = principal.orgId ?? input.org_id;
    if (principal.orgId !== undefined && input.org_id !== undefined && input.org_id !== principal.orgId) {
      throw forbidden(`this organization API key belongs to ${principal.orgId}; it cannot create projects in ${input.org_id}`);
    }
    if (orgId !== undefined && principal.orgId === undefined && !world.orgs.get(orgId)?.members.has(principal.userId)) {
      throw notFound(`organization ${orgId} not found (or you are not a member)`);
    }
    const regionId = input.region_id ?? "aws-us-east-2";
    if (!world.regions.some((reg) => reg.id === regionId)) {
      throw badRequest(`project.region_id "${regionId}" is not a known region; GET /regions lists them`, [{ path: "project.region_id", message: "unknown region" }]);
    }
    if (input.autoscaling_limit_min_cu !== undefined && input.autoscaling_limit_max_cu !== undefined) {
      checkComputeRange(input.autoscaling_limit_min_cu, input.autoscaling_limit_max_cu, "project");
    }
    const ownerId = orgId ?? principal.userId;
    const plan = orgId !== undefined ? (world.orgs.get(orgId)?.plan ?? "free") : (world.users.get(principal.userId)?.plan ?? "free");
    const limits = PLAN_LIMITS[plan];
    const owned = [...world.projects.values()].filter((p) => p.deletedAt === undefined && world.accountOf(p) === ownerId).length;
    if (owned >= limits.projects) throw forbidden(`the ${plan} plan allows ${limits.projects} projects and the account has ${owned}; delete a project or upgrade the plan`, "plan_limit_exceeded");
    if (input.history_retention_seconds !== undefined && input.history_retention_seconds > limits.historySeconds) {
      throw forbidden(`project.history_retention_seconds ${input.history_retention_seconds} exceeds the ${plan} plan's ${limits.historySeconds} s`, "plan_limit_exceeded");
    }
    const project = newProjectRecord(world, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      regionId,
      pgVersion: input.pg_version ?? 17,
      ownerId: principal.userId,
      ...(orgId !== undefined ? { orgId } : {}),
      ...(input.store_passwords !== undefined ? { storePasswords: input.store_passwords } : {}),
      ...(input.history_retention_seconds !== undefined ? { historyRetentionSeconds: input.history_retention_seconds } : {}),
      ...(input.settings !== undefined ? { settings: input.settings } : {}),
      defaultEndpointSettings: {
        ...input.default_endpoint_settings,
        ...(input.autoscaling_limit_min_cu !== undefined ? { autoscaling_limit_min_cu: input.autoscaling_limit_min_cu } : {}),
        ...(input.autoscaling_limit_max_cu !== undefined ? { autoscaling_limit_max_cu: input.autoscaling_limit_max_cu } : {}),
      },
      ...(input.provisioner !== undefined ? { provisioner: input.provisioner } : {}),
    });
    world.projects.set(project.id, project);
    const branch = newBranchRecord(world, project, { name: input.branch?.name ?? "main", isDefault: true, state: "init", initSource: "schema-only" });
    const role = newRole(world, input.branch?.role_name ?? "neondb_owner");
    branch.roles.set(role.name, role);
    const dbName = input.branch?.database_name ?? "neondb";
    const now = world.clock.now();
    branch.databases.set(dbName, { id: world.newDatabaseId(), name: dbName, ownerName: role.name, createdAt: now, updatedAt: now });
    const endpoint = newEndpointRecord(world, project, branch.id, { type: "read_write" });
    const specs: OperationSpec[] = [
      { action: "create_timeline", branchId: branch.id, onFinish: () => markReady(world.clock.now(), branch) },
      { action: "start_compute", branchId: branch.id, endpointId: endpoint.id, onStart: () => beginStart(endpoint), onFinish: (failed) => finishStart(world, endpoint, failed) },
    ];
    const ops = startOperations(world, project, specs, rt.shouldFailOperation);
    return c.json(
      {
        project: projectView(world, project),
        branch: branchView(branch),
        endpoints: [endpointView(world, project, endpoint)],
        roles: [roleView(branch.id, role, true)],
        databases: [...branch.databases.values()].map((d) => databaseView(branch.id, d)),
        operations: ops.map(operationView),
        connection_uris: [connectionUriEntry(world, project, endpoint, role, dbName)],
      },
      201,
    );
  });

  r.get("/projects/:project_id", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    return c.json({ project: projectView(world, project) });
  });

  r.patch("/projects/:project_id", async (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const body = await readJson(c, ProjectUpdateRequestSchema);
    const input = body.project;
    const des = input.default_endpoint_settings;
    if (des?.autoscaling_limit_min_cu !== undefined || des?.autoscaling_limit_max_cu !== undefined) {
      const min = des.autoscaling_limit_min_cu ?? project.defaultEndpointSettings.autoscaling_limit_min_cu ?? 0.25;
      const max = des.autoscaling_limit_max_cu ?? project.defaultEndpointSettings.autoscaling_limit_max_cu ?? Math.max(min, 2);
      checkComputeRange(min, max, "project.default_endpoint_settings");
    }
    requireUnlocked(project);
    const plan = world.planOf(project);
    if (input.history_retention_seconds !== undefined && input.history_retention_seconds > PLAN_LIMITS[plan].historySeconds) {
      throw forbidden(`project.history_retention_seconds ${input.history_retention_seconds} exceeds the ${plan} plan's ${PLAN_LIMITS[plan].historySeconds} s; lower it or upgrade the plan`, "plan_limit_exceeded");
    }
    applyProjectPatch(project, input, world.clock.now());
    const specs: OperationSpec[] = [];
    if (input.history_retention_seconds !== undefined) specs.push({ action: "apply_storage_config" });
    if (input.settings !== undefined) {
      for (const ep of project.endpoints.values()) specs.push({ action: "apply_config", branchId: ep.branchId, endpointId: ep.id });
    }
    const ops = startOperations(world, project, specs, rt.shouldFailOperation);
    return c.json({ project: projectView(world, project), operations: ops.map(operationView) });
  });

  r.delete("/projects/:project_id", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    requireRole(world, c, project, "ADMIN", "deleting a project");
    requireUnlocked(project);
    deleteProject(world, project);
    return c.json({ project: projectView(world, project) });
  });

  r.post("/projects/:project_id/recover", async (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"), true);
    requireRole(world, c, project, "ADMIN", "recovering a project");
    await readJson(c, ProjectRecoverRequestSchema, { optional: true });
    if (project.deletedAt === undefined) throw conflict(`project ${project.id} is not deleted; only deleted projects can be recovered`, "conflict");
    requireUnlocked(project);
    if (!recoverProject(world, project)) throw notFound(`project ${project.id} not found: its 7-day recovery window has passed`);
    return c.json({ project: projectView(world, project) });
  });

  return r;
}

function markReady(now: number, branch: { currentState: string; stateChangedAt: number }): void {
  branch.currentState = "ready";
  branch.stateChangedAt = now;
}

function applyProjectPatch(project: ProjectRec, input: { name?: string | undefined; history_retention_seconds?: number | undefined; settings?: Record<string, unknown> | undefined; default_endpoint_settings?: ProjectRec["defaultEndpointSettings"] | undefined }, now: number): void {
  if (input.name !== undefined) project.name = input.name;
  if (input.history_retention_seconds !== undefined) project.historyRetentionSeconds = input.history_retention_seconds;
  if (input.settings !== undefined) project.settings = { ...project.settings, ...input.settings };
  if (input.default_endpoint_settings !== undefined) project.defaultEndpointSettings = { ...project.defaultEndpointSettings, ...input.default_endpoint_settings };
  project.updatedAt = now;
}
