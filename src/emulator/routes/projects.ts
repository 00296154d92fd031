/**
 * Projects: list (also recoverable ones), shared, create, get, patch, delete and
 * recover. Parse the wire body, call the domain functions of `engine/projects.ts`, render.
 */
import { Hono } from "hono";
import { ProjectCreateRequestSchema, ProjectRecoverRequestSchema, ProjectListQuerySchema, ProjectUpdateRequestSchema, SharedProjectListQuerySchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { deleteProject } from "../engine/project-deletion.js";
import { createProject, listProjects, listSharedProjects, recoverDeletedProject, updateProject } from "../engine/projects.js";
import type { EmulatorEnv } from "../http/env.js";
import { requireRole, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { branchView, databaseView, endpointView, operationView, projectView, roleView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import { connectionUriEntry, cursorPage } from "./shared.js";

/** Routes of the project group. */
export function projectRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/projects", (c) => {
    const world = rt.world;
    world.now();
    const q = readQuery(c, ProjectListQuerySchema);
    const items = listProjects(world, c.get("principal"), {
      ...(q.org_id !== undefined ? { orgId: q.org_id } : {}),
      ...(q.recoverable !== undefined ? { recoverable: q.recoverable } : {}),
      ...(q.search !== undefined ? { search: q.search } : {}),
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
    const { page, cursor } = cursorPage(listSharedProjects(world, c.get("principal"), q.search), (p) => p, q.cursor, q.limit ?? 10);
    return c.json({ projects: page.map((p) => projectView(world, p, false)), pagination: cursor !== undefined ? { cursor } : {} });
  });

  r.post("/projects", async (c) => {
    const world = rt.world;
    world.now();
    const body = await readJson(c, ProjectCreateRequestSchema);
    const { project, branch, endpoint, role, databaseName, operations } = createProject(world, c.get("principal"), body.project, rt.shouldFailOperation);
    return c.json(
      {
        project: projectView(world, project),
        branch: branchView(branch),
        endpoints: [endpointView(world, project, endpoint, rt.endpointHosts(project, endpoint))],
        roles: [roleView(branch.id, role, true)],
        databases: [...branch.databases.values()].map((d) => databaseView(branch.id, d)),
        operations: operations.map(operationView),
        connection_uris: [connectionUriEntry(world, project, endpoint, role, databaseName, rt.endpointHosts(project, endpoint))],
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
    const operations = updateProject(world, project, body.project, rt.shouldFailOperation);
    return c.json({ project: projectView(world, project), operations: operations.map(operationView) });
  });

  r.delete("/projects/:project_id", (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"));
    requireRole(world, c, project, "ADMIN", "deleting a project");
    deleteProject(world, project);
    return c.json({ project: projectView(world, project) });
  });

  r.post("/projects/:project_id/recover", async (c) => {
    const world = rt.world;
    world.now();
    const project = visibleProject(world, c, c.req.param("project_id"), true);
    requireRole(world, c, project, "ADMIN", "recovering a project");
    await readJson(c, ProjectRecoverRequestSchema, { optional: true });
    recoverDeletedProject(world, project);
    return c.json({ project: projectView(world, project) });
  });

  return r;
}
