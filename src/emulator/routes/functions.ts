/** Functions and deployments; the first deployment to a slug creates the function. */
import { Hono, type Context } from "hono";
import { DeploymentEnvironmentSchema, FunctionListQuerySchema, FunctionSlugSchema, FunctionUpdateRequestSchema } from "../../api/wire/index.js";
import { inspectArchive } from "../engine/archives.js";
import { deleteFunction, deployFunction, localFunction, renameFunction } from "../engine/deployments.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, badRequest, notFound, payloadTooLarge, unprocessable } from "../http/errors.js";
import { type MultipartFields, readPlainMultipart } from "../http/multipart.js";
import { unreadableMultipartReason } from "../http/multipart-refusal.js";
import { branchFromPath } from "../http/scope.js";
import { readJson, readQuery, toIssues } from "../http/validate.js";
import { deploymentView, functionView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";
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

/**
 * The body's parts by name: read in place when in the plain form (`http/multipart.ts`), through
 * Hono's `parseBody` (undici's parser) otherwise, which refuses a malformed body: the 400 then says
 * which rule the body breaks (`http/multipart-refusal.ts`), never the parser's own text.
 */
async function readForm(c: Context<EmulatorEnv>): Promise<MultipartFields> {
  const contentType = c.req.header("content-type") ?? "";
  let body: Uint8Array | undefined;
  try {
    body = new Uint8Array(await c.req.arrayBuffer());
    const plain = readPlainMultipart(body, contentType);
    if (plain !== undefined) return plain;
    const form = await c.req.parseBody({ all: false });
    const fields: MultipartFields = new Map();
    for (const [name, value] of Object.entries(form)) {
      if (typeof value === "string") fields.set(name, value);
      else if (value instanceof Blob) fields.set(name, { kind: "file", bytes: new Uint8Array(await value.arrayBuffer()) });
    }
    return fields;
  } catch (err) {
    if (err instanceof EmulatorHttpError) throw err;
    throw badRequest(`the multipart body cannot be read (${unreadableMultipartReason(body, contentType)}); send multipart/form-data with parts zip, runtime, environment`);
  }
}

async function readParts(c: Context<EmulatorEnv>, rt: EmulatorRuntime): Promise<DeployParts> {
  const form = await readForm(c);
  const parts: DeployParts = {};
  const zip = form.get("zip");
  if (zip !== undefined) {
    if (typeof zip === "string") throw badRequest("part zip must be a file (filename bundle.zip), not a text field", [{ path: "zip", message: "must be a file" }]);
    if (zip.bytes.byteLength > rt.limits.zipBytes) throw payloadTooLarge(`the archive is ${zip.bytes.byteLength} bytes (limit ${rt.limits.zipBytes}); bundle less code`);
    // A view of the body: the blob store keeps its own copy of what it stores.
    parts.zip = zip.bytes;
  }
  const runtime = form.get("runtime");
  if (runtime !== undefined) {
    if (typeof runtime !== "string") throw badRequest("part runtime must be the text nodejs24, not a file", [{ path: "runtime", message: "must be text" }]);
    if (runtime !== "nodejs24") throw badRequest(`part runtime "${runtime.slice(0, 40)}" is not supported; use nodejs24`, [{ path: "runtime", message: "must be nodejs24" }]);
    parts.runtime = runtime;
  }
  const env = form.get("environment");
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

/** Checks an uploaded archive (413/422 refuse it, nothing stored) and stores it by its SHA-256. */
async function storeArchive(rt: EmulatorRuntime, zip: Uint8Array): Promise<{ sha256: string; buildError: string | null }> {
  const inspection = await inspectArchive(zip, { zipEntries: rt.limits.zipEntries, unzippedBytes: rt.limits.unzippedBytes });
  if (inspection.kind === "unsafe") throw unprocessable(inspection.message, "unsafe_archive_entry");
  if (inspection.kind === "too-large") throw payloadTooLarge(inspection.message);
  // The inspection's digest is of these bytes: the store does not hash them again.
  return { sha256: await rt.world.blobs.put(zip, inspection.sha256), buildError: inspection.buildError };
}

/** Routes of the function group: parse, call the domain functions of `engine/deployments.ts`, render. */
export function functionRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/functions";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "functions");

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
    const slug = c.req.param("slug");
    checkSlug(slug);
    localFunction(branch, slug); // 404 before the body is read, as for DELETE
    const body = await readJson(c, FunctionUpdateRequestSchema);
    return c.json({ function: functionView(rt.world, project, branch, renameFunction(branch, slug, body.name)) });
  });

  r.delete(`${base}/:slug`, (c) => {
    const { project, branch } = scope(c);
    const slug = c.req.param("slug");
    checkSlug(slug);
    deleteFunction(rt.world, project, branch, slug);
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
    const archive = parts.zip !== undefined ? await storeArchive(rt, parts.zip) : undefined;
    const { deployment } = deployFunction(world, branch, slug, {
      ...(archive !== undefined ? { archive } : {}),
      ...(parts.runtime !== undefined ? { runtime: parts.runtime } : {}),
      ...(parts.environment !== undefined ? { environment: parts.environment } : {}),
    });
    // The answer shows the deployment as created; builds with zero timings then run at once.
    const view = deploymentView(deployment);
    world.scheduler.materialize(world.clock.now());
    return c.json({ deployment: view }, 201);
  });

  return r;
}
