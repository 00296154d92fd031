/** The data API: one per (branch, database); parse, call `engine/data-api.ts`, render. */
import { Hono, type Context } from "hono";
import { DataApiCreateRequestSchema, DataApiUpdateRequestSchema } from "../../api/wire/index.js";
import { disableDataApi, effectiveDataApiSettings, enableDataApi, findDataApi, updateDataApiSettings } from "../engine/data-api.js";
import { dataApiUrl } from "../engine/service-urls.js";
import type { EmulatorEnv } from "../http/env.js";
import { notFound } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";

/** Routes of the data API group. */
export function dataApiRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const path = "/projects/:project_id/branches/:branch_id/data-api/:database_name";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec; db: string } => {
    const found = branchFromPath(rt.world, c);
    const db = c.req.param("database_name") ?? "";
    if (!found.branch.databases.has(db)) throw notFound(`database "${db}" not found on branch ${found.branch.id}`);
    return { ...found, db };
  };
  const urlOf = (project: ProjectRec, branch: BranchRec, db: string): string => dataApiUrl(rt.world, project, branch, db);

  r.get(path, (c) => {
    const { project, branch, db } = scope(c);
    const rec = findDataApi(branch, db);
    return c.json({ url: urlOf(project, branch, db), status: "ready", settings: effectiveDataApiSettings(rec), available_schemas: ["public"] });
  });

  r.post(path, async (c) => {
    const { project, branch, db } = scope(c);
    const body = await readJson(c, DataApiCreateRequestSchema, { optional: true });
    enableDataApi(
      branch,
      db,
      {
        ...(body.auth_provider !== undefined ? { authProvider: body.auth_provider } : {}),
        ...(body.jwks_url !== undefined ? { jwksUrl: body.jwks_url } : {}),
        ...(body.settings !== undefined ? { settings: body.settings } : {}),
      },
      rt.world.clock.now(),
    );
    return c.json({ url: urlOf(project, branch, db) }, 201);
  });

  r.patch(path, async (c) => {
    const { branch, db } = scope(c);
    findDataApi(branch, db);
    const body = await readJson(c, DataApiUpdateRequestSchema, { optional: true });
    updateDataApiSettings(branch, db, body.settings);
    return c.json({}, 201);
  });

  r.delete(path, (c) => {
    const { branch, db } = scope(c);
    disableDataApi(branch, db);
    return c.json({});
  });

  return r;
}
