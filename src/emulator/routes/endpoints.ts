/**
 * Compute endpoints: list, create, get, patch, delete, start, suspend, restart. Parse
 * the wire body, call the domain functions of `engine/endpoints.ts`, render the view.
 */
import { Hono, type Context } from "hono";
import { EndpointCreateRequestSchema, EndpointUpdateRequestSchema, type Endpoint, type Operation } from "../../api/wire/index.js";
import { createEndpoint, deleteEndpoint, findEndpoint, restartEndpoint, startEndpoint, suspendEndpoint, updateEndpoint } from "../engine/endpoints.js";
import type { EmulatorEnv } from "../http/env.js";
import { checkId, visibleProject } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import { endpointView, operationView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { EndpointRec, OperationRec, ProjectRec } from "../store/records.js";

/** Routes of the endpoint group. */
export function endpointRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/endpoints";

  const projectOf = (c: Context<EmulatorEnv>): ProjectRec => {
    rt.world.now();
    return visibleProject(rt.world, c, c.req.param("project_id") ?? "");
  };
  const idOf = (c: Context<EmulatorEnv>): string => {
    const id = c.req.param("endpoint_id") ?? "";
    checkId("endpoint_id", id);
    return id;
  };
  const endpointOf = (c: Context<EmulatorEnv>): { project: ProjectRec; endpoint: EndpointRec } => {
    const project = projectOf(c);
    return { project, endpoint: findEndpoint(project, idOf(c)) };
  };
  const render = (project: ProjectRec, endpoint: EndpointRec, operations: OperationRec[]): { endpoint: Endpoint; operations: Operation[] } => ({
    endpoint: endpointView(rt.world, project, endpoint, rt.endpointHosts(project, endpoint)),
    operations: operations.map(operationView),
  });

  r.get(base, (c) => {
    const project = projectOf(c);
    return c.json({ endpoints: [...project.endpoints.values()].map((e) => endpointView(rt.world, project, e, rt.endpointHosts(project, e))) });
  });

  r.post(base, async (c) => {
    const project = projectOf(c);
    const { endpoint: input } = await readJson(c, EndpointCreateRequestSchema);
    const { endpoint, operations } = createEndpoint(rt.world, project, input, rt.shouldFailOperation);
    return c.json(render(project, endpoint, operations), 201);
  });

  r.get(`${base}/:endpoint_id`, (c) => {
    const { project, endpoint } = endpointOf(c);
    return c.json({ endpoint: endpointView(rt.world, project, endpoint, rt.endpointHosts(project, endpoint)) });
  });

  r.patch(`${base}/:endpoint_id`, async (c) => {
    const { project, endpoint } = endpointOf(c);
    const { endpoint: input } = await readJson(c, EndpointUpdateRequestSchema);
    const { operations } = updateEndpoint(rt.world, project, endpoint, input, rt.shouldFailOperation);
    return c.json(render(project, endpoint, operations));
  });

  r.delete(`${base}/:endpoint_id`, (c) => {
    const project = projectOf(c);
    const deleted = deleteEndpoint(rt.world, project, idOf(c), rt.shouldFailOperation);
    if (deleted === undefined) return c.body(null, 204);
    return c.json(render(project, deleted.endpoint, deleted.operations));
  });

  r.post(`${base}/:endpoint_id/start`, (c) => {
    const { project, endpoint } = endpointOf(c);
    return c.json(render(project, endpoint, startEndpoint(rt.world, project, endpoint, rt.shouldFailOperation)));
  });

  r.post(`${base}/:endpoint_id/suspend`, (c) => {
    const { project, endpoint } = endpointOf(c);
    return c.json(render(project, endpoint, suspendEndpoint(rt.world, project, endpoint, rt.shouldFailOperation)));
  });

  r.post(`${base}/:endpoint_id/restart`, (c) => {
    const { project, endpoint } = endpointOf(c);
    return c.json(render(project, endpoint, restartEndpoint(rt.world, project, endpoint, rt.shouldFailOperation)));
  });

  return r;
}
