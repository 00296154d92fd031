/** Functions and deployments (api.md §13); the first deployment to a slug creates the function. */
import { Hono, type Context } from "hono";
import { DeploymentEnvironmentSchema, FunctionListQuerySchema, FunctionSlugSchema, FunctionUpdateRequestSchema } from "../../api/wire/index.js";
import { inspectArchive } from "../engine/archives.js";
import { DEPLOYMENT_MEMORY_MIB, scheduleBuild } from "../engine/deployments.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, badRequest, notFound, payloadTooLarge, unprocessable } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson, readQuery, toIssues } from "../http/validate.js";
import { deploymentView, functionView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, DeploymentRec, FunctionRec, ProjectRec } from "../store/records.js";
import { nextPage } from "./shared.js";

function checkSlug(slug: string): void {
  const result = FunctionSlugSchema.safeParse(slug);
  if (!result.success) throw badRequest(`function slug "${slug.slice(0, 40)}" must match ^[a-z0-9]{1,20}$`, toIssues(result.error, "slug"));
}

interface DeployParts {
  zip?: Uint8Array;
  runtime?: string;
  environment?: Record<string, string>;
}

async function readParts(c: Context<EmulatorEnv>, rt: EmulatorRuntime): Promise<DeployParts> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: false });
  } catch (err) {
    if (err instanceof EmulatorHttpError) throw err;
    throw badRequest(`the multipart body cannot be read (${(err as Error).message}); send multipart/form-data with parts zip, runtime, environment`);
  }
  const parts: DeployParts = {};
  const zip = form["zip"];
  if (zip !== undefined) {
    if (typeof zip === "string") throw badRequest("part zip must be a file (filename bundle.zip), not a text field", [{ path: "zip", message: "must be a file" }]);
    const file = zip as Blob;
    if (file.size > rt.limits.zipBytes) throw payloadTooLarge(`the archive is ${file.size} bytes (limit ${rt.limits.zipBytes}); bundle less code`);
    parts.zip = new Uint8Array(await file.arrayBuffer());
  }
  const runtime = form["runtime"];
  if (runtime !== undefined) {
    if (runtime !== "nodejs24") throw badRequest(`part runtime "${String(runtime).slice(0, 40)}" is not supported; use nodejs24`, [{ path: "runtime", message: "must be nodejs24" }]);
    parts.runtime = runtime;
  }
  const env = form["environment"];
  if (env !== undefined) {
    if (typeof env !== "string") throw badRequest("part environment must be a JSON-encoded string map, not a file", [{ path: "environment", message: "must be text" }]);
    if (Buffer.byteLength(env, "utf8") > rt.limits.environmentBytes) throw payloadTooLarge(`part environment exceeds ${rt.limits.environmentBytes} bytes`);
    let decoded: unknown;
    try {
      decoded = JSON.parse(env);
    } catch {
      throw badRequest('part environment is not valid JSON; send a JSON object such as {"API_URL":"https://x"}', [{ path: "environment", message: "must be a JSON object" }]);
    }
    const parsed = DeploymentEnvironmentSchema.safeParse(decoded);
    if (!parsed.success) throw badRequest("part environment must map names matching ^[A-Za-z_][A-Za-z0-9_]*$ to string values", toIssues(parsed.error, "environment"));
    parts.environment = parsed.data;
  }
  return parts;
}

/** Routes of the function group. */
export function functionRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/functions";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "functions");
  const localFunction = (c: Context<EmulatorEnv>, branch: BranchRec): FunctionRec => {
    const slug = c.req.param("slug") ?? "";
    checkSlug(slug);
    const fn = branch.functions.get(slug);
    if (fn === undefined || fn.inherited) {
      throw notFound(`function "${slug}" not found on branch ${branch.id}${fn?.inherited ? " (it is inherited from the parent branch: deploy it here first)" : ""}`);
    }
    return fn;
  };

  r.get(base, (c) => {
    const { project, branch } = scope(c);
    const q = readQuery(c, FunctionListQuerySchema);
    const sorted = [...branch.functions.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    const { page, next } = nextPage(sorted, q.cursor, q.limit ?? 100, "slug:asc");
    return c.json({ functions: page.map((f) => functionView(rt.world, project, branch, f)), ...(next !== undefined ? { pagination: { next, cursor: next } } : {}) });
  });

  r.get(`${base}/:slug`, (c) => {
    const { project, branch } = scope(c);
    const slug = c.req.param("slug");
    checkSlug(slug);
    const fn = branch.functions.get(slug);
    if (fn === undefined) throw notFound(`function "${slug}" not found on branch ${branch.id}; deploy it first`);
    return c.json({ function: functionView(rt.world, project, branch, fn) });
  });

  r.patch(`${base}/:slug`, async (c) => {
    const { project, branch } = scope(c);
    const fn = localFunction(c, branch);
    const body = await readJson(c, FunctionUpdateRequestSchema);
    fn.name = body.name ?? fn.slug;
    return c.json({ function: functionView(rt.world, project, branch, fn) });
  });

  r.delete(`${base}/:slug`, (c) => {
    const { project, branch } = scope(c);
    const fn = localFunction(c, branch);
    branch.functions.delete(fn.slug);
    for (const [id, t] of [...branch.triggers]) if (t.functionSlug === fn.slug) branch.triggers.delete(id);
    for (const [domain, d] of [...rt.world.domains]) if (d.projectId === project.id && d.branchId === branch.id && d.entityId === fn.slug) rt.world.domains.delete(domain);
    return c.body(null, 204);
  });

  r.post(`${base}/:slug/deployments`, async (c) => {
    const world = rt.world;
    const { branch } = scope(c);
    const slug = c.req.param("slug");
    checkSlug(slug);
    const parts = await readParts(c, rt);
    if (parts.zip === undefined && parts.runtime === undefined && parts.environment === undefined) {
      throw badRequest("the deployment has no parts; send at least one of zip, runtime, environment");
    }
    const existing = branch.functions.get(slug);
    const previous = existing?.deployments.at(-1);
    if (previous === undefined && parts.zip === undefined) throw unprocessable(`function "${slug}" has no deployment on branch ${branch.id} yet: the first deployment must include the zip part`, "zip_required");
    let sha256 = previous?.zipSha256 ?? "";
    let buildError = previous?.buildError ?? null;
    if (parts.zip !== undefined) {
      const inspection = await inspectArchive(parts.zip, { zipEntries: rt.limits.zipEntries, unzippedBytes: rt.limits.unzippedBytes });
      if (inspection.kind === "unsafe") throw unprocessable(inspection.message, "unsafe_archive_entry");
      if (inspection.kind === "too-large") throw payloadTooLarge(inspection.message);
      sha256 = await world.blobs.put(parts.zip);
      buildError = inspection.buildError;
    }
    const environment = new Map(previous?.environment ?? []);
    for (const [name, value] of Object.entries(parts.environment ?? {})) {
      if (value === "") environment.delete(name);
      else environment.set(name, value);
    }
    const now = world.clock.now();
    const fn: FunctionRec = existing ?? { id: world.ids.uuid(), slug, name: slug, createdAt: now, inherited: false, deployments: [] };
    if (fn.inherited) {
      fn.inherited = false;
      fn.deployments = fn.deployments.map((d) => ({ ...d, environment: new Map(d.environment) }));
    }
    branch.functions.set(slug, fn);
    const buildingAt = now + world.timings.deployPendingMs;
    const deployment: DeploymentRec = {
      id: (previous?.id ?? 0) + 1,
      status: "pending",
      runtime: parts.runtime ?? previous?.runtime ?? "nodejs24",
      memoryMib: DEPLOYMENT_MEMORY_MIB,
      createdAt: now,
      environment,
      zipSha256: sha256,
      buildError,
      buildingAt,
      finishAt: buildingAt + world.timings.deployBuildMs,
    };
    fn.deployments.push(deployment);
    const view = deploymentView(deployment);
    scheduleBuild(world, deployment);
    world.scheduler.materialize(world.clock.now());
    return c.json({ deployment: view }, 201);
  });

  return r;
}
