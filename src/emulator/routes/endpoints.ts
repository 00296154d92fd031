/** Compute endpoints (api.md §6): list, create, get, patch, delete, start, suspend, restart. */
import { Hono, type Context } from "hono";
import { EndpointCreateRequestSchema, EndpointUpdateRequestSchema } from "../../api/wire/index.js";
import { beginStart, finishStart, finishSuspend, newEndpointRecord } from "../engine/lifecycle.js";
import { startOperations, type OperationSpec } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { conflict, notFound } from "../http/errors.js";
import { checkId, requireUnlocked, visibleProject } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import { endpointView, operationView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { EndpointRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { checkComputeRange } from "./shared.js";

function startSpec(world: World, ep: EndpointRec): OperationSpec {
  return { action: "start_compute", branchId: ep.branchId, endpointId: ep.id, onStart: () => beginStart(ep), onFinish: (failed) => finishStart(world, ep, failed) };
}

function suspendSpec(world: World, ep: EndpointRec): OperationSpec {
  return {
    action: "suspend_compute",
    branchId: ep.branchId,
    endpointId: ep.id,
    onStart: () => {
      ep.pendingState = "idle";
    },
    onFinish: (failed) => finishSuspend(world, ep, failed),
  };
}

/** Routes of the endpoint group. */
export function endpointRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/endpoints";

  const endpointOf = (c: Context<EmulatorEnv>): { project: ProjectRec; endpoint: EndpointRec } => {
    const project = visibleProject(rt.world, c, c.req.param("project_id") ?? "");
    const id = c.req.param("endpoint_id") ?? "";
    checkId("endpoint_id", id);
    const endpoint = project.endpoints.get(id);
    if (endpoint === undefined) throw notFound(`endpoint ${id} not found in project ${project.id}`);
    return { project, endpoint };
  };

  r.get(base, (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    return c.json({ endpoints: [...project.endpoints.values()].map((e) => endpointView(world, project, e)) });
  });

  r.post(base, async (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const { endpoint: input } = await readJson(c, EndpointCreateRequestSchema);
    const branch = project.branches.get(input.branch_id);
    if (branch === undefined) throw notFound(`endpoint.branch_id: branch ${input.branch_id} not found in project ${project.id}`);
    const min = input.autoscaling_limit_min_cu ?? project.defaultEndpointSettings.autoscaling_limit_min_cu ?? 0.25;
    const max = input.autoscaling_limit_max_cu ?? project.defaultEndpointSettings.autoscaling_limit_max_cu ?? Math.max(min, 2);
    checkComputeRange(min, max, "endpoint");
    requireUnlocked(project);
    if (input.type === "read_write" && [...project.endpoints.values()].some((e) => e.branchId === branch.id && e.type === "read_write")) {
      throw conflict(`branch ${branch.id} already has a read_write endpoint; add a read_only endpoint or update the existing one`, "already_exists");
    }
    const { branch_id: branchId, ...options } = input;
    const endpoint = newEndpointRecord(world, project, branchId, { ...options, autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max });
    const ops = startOperations(world, project, [startSpec(world, endpoint)], rt.shouldFailOperation);
    return c.json({ endpoint: endpointView(world, project, endpoint), operations: ops.map(operationView) }, 201);
  });

  r.get(`${base}/:endpoint_id`, (c) => {
    rt.world.now();
    const { project, endpoint } = endpointOf(c);
    return c.json({ endpoint: endpointView(rt.world, project, endpoint) });
  });

  r.patch(`${base}/:endpoint_id`, async (c) => {
    const world = rt.world;
    const now = world.now();
    const { project, endpoint } = endpointOf(c);
    const { endpoint: input } = await readJson(c, EndpointUpdateRequestSchema);
    checkComputeRange(input.autoscaling_limit_min_cu ?? endpoint.minCu, input.autoscaling_limit_max_cu ?? endpoint.maxCu, "endpoint");
    if (input.branch_id !== undefined && !project.branches.has(input.branch_id)) throw notFound(`endpoint.branch_id: branch ${input.branch_id} not found in project ${project.id}`);
    requireUnlocked(project);
    if (input.autoscaling_limit_min_cu !== undefined) endpoint.minCu = input.autoscaling_limit_min_cu;
    if (input.autoscaling_limit_max_cu !== undefined) endpoint.maxCu = input.autoscaling_limit_max_cu;
    if (input.suspend_timeout_seconds !== undefined) endpoint.suspendTimeoutSeconds = input.suspend_timeout_seconds;
    if (input.settings !== undefined) endpoint.settings = { ...endpoint.settings, ...input.settings };
    if (input.provisioner !== undefined) endpoint.provisioner = input.provisioner;
    if (input.name !== undefined) endpoint.name = input.name;
    if (input.pooler_enabled !== undefined) endpoint.poolerEnabled = input.pooler_enabled;
    if (input.pooler_mode !== undefined) endpoint.poolerMode = input.pooler_mode;
    if (input.branch_id !== undefined) endpoint.branchId = input.branch_id;
    const specs: OperationSpec[] = [{ action: "apply_config", branchId: endpoint.branchId, endpointId: endpoint.id }];
    if (input.disabled !== undefined) {
      if (input.disabled && endpoint.currentState === "active") specs.push(suspendSpec(world, endpoint));
      endpoint.disabled = input.disabled;
    }
    endpoint.updatedAt = now;
    const ops = startOperations(world, project, specs, rt.shouldFailOperation);
    return c.json({ endpoint: endpointView(world, project, endpoint), operations: ops.map(operationView) });
  });

  r.delete(`${base}/:endpoint_id`, (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const id = c.req.param("endpoint_id");
    checkId("endpoint_id", id);
    const endpoint = project.endpoints.get(id);
    if (endpoint === undefined) return c.body(null, 204);
    requireUnlocked(project);
    const specs = endpoint.currentState === "active" ? [{ action: "suspend_compute", branchId: endpoint.branchId, endpointId: endpoint.id }] : [];
    const ops = startOperations(world, project, specs, rt.shouldFailOperation);
    const view = endpointView(world, project, endpoint);
    project.endpoints.delete(endpoint.id);
    return c.json({ endpoint: view, operations: ops.map(operationView) });
  });

  r.post(`${base}/:endpoint_id/start`, (c) => {
    const world = rt.world;
    world.now();
    const { project, endpoint } = endpointOf(c);
    requireUnlocked(project);
    if (endpoint.disabled) throw conflict(`endpoint ${endpoint.id} is disabled; PATCH it with disabled: false before starting it`);
    const spec = endpoint.currentState === "active" ? { ...startSpec(world, endpoint), skip: true, onStart: undefined, onFinish: undefined } : startSpec(world, endpoint);
    const ops = startOperations(world, project, [spec], rt.shouldFailOperation);
    return c.json({ endpoint: endpointView(world, project, endpoint), operations: ops.map(operationView) });
  });

  r.post(`${base}/:endpoint_id/suspend`, (c) => {
    const world = rt.world;
    world.now();
    const { project, endpoint } = endpointOf(c);
    requireUnlocked(project);
    const spec = endpoint.currentState !== "active" ? { ...suspendSpec(world, endpoint), skip: true, onStart: undefined, onFinish: undefined } : suspendSpec(world, endpoint);
    const ops = startOperations(world, project, [spec], rt.shouldFailOperation);
    return c.json({ endpoint: endpointView(world, project, endpoint), operations: ops.map(operationView) });
  });

  r.post(`${base}/:endpoint_id/restart`, (c) => {
    const world = rt.world;
    world.now();
    const { project, endpoint } = endpointOf(c);
    requireUnlocked(project);
    if (endpoint.disabled) throw conflict(`endpoint ${endpoint.id} is disabled; PATCH it with disabled: false before restarting it`);
    const ops = startOperations(world, project, [suspendSpec(world, endpoint), startSpec(world, endpoint)], rt.shouldFailOperation);
    return c.json({ endpoint: endpointView(world, project, endpoint), operations: ops.map(operationView) });
  });

  return r;
}
