/** Operations: list (newest first, cursor paging) and get. */
import { Hono } from "hono";
import { OperationListQuerySchema } from "../../api/wire/index.js";
import type { EmulatorEnv } from "../http/env.js";
import { notFound } from "../http/errors.js";
import { visibleProject } from "../http/scope.js";
import { readQuery } from "../http/validate.js";
import { operationView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import { pruneOperations } from "../engine/operations.js";
import { cursorPage } from "./shared.js";

/** Routes of the operation group. */
export function operationRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/projects/:project_id/operations", (c) => {
    const world = rt.world;
    const now = world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const q = readQuery(c, OperationListQuerySchema);
    pruneOperations(project, now);
    const { page, cursor } = cursorPage(project.operations, (op) => ({ createdAt: op.createdAt, id: `op${String(op.seq).padStart(12, "0")}` }), q.cursor, q.limit ?? 10);
    return c.json({ operations: page.map(operationView), pagination: cursor !== undefined ? { cursor } : {} });
  });

  r.get("/projects/:project_id/operations/:operation_id", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    const id = c.req.param("operation_id");
    const op = project.operations.find((o) => o.id === id);
    if (op === undefined) throw notFound(`operation ${id} not found in project ${project.id}`);
    return c.json({ operation: operationView(op) });
  });

  return r;
}
