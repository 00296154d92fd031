/**
 * Deprecated per-project auth routes as thin aliases: each resolves the
 * replacement's branch (`branch_id` in the body, else the project's default branch), calls the
 * branch-level handler in-process, and answers with `Deprecation`, `Sunset` and `Link` headers —
 * errors included. After the removal date, `legacyAuth: "gone"` answers 410 on dated routes.
 */
import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { randomUUID } from "node:crypto";
import { LegacyAuthCreateRequestSchema, LegacyAuthProjectRequestSchema, LegacyAuthUserCreateRequestSchema } from "../../api/wire/index.js";
import { completeAuthTransfer, findProviderAuth, legacyTargetBranch, projectDefaultDatabase, startAuthTransfer } from "../engine/legacy-auth.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, badRequest, notFound } from "../http/errors.js";
import { checkId, visibleProject } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, Principal, ProjectRec } from "../store/records.js";
import { authCredentialsView, authRoutes } from "./auth.js";

/** 2026-03-01T00:00:00Z, the removal date of the dated legacy routes. */
export const LEGACY_REMOVAL_MS = Date.UTC(2026, 2, 1);
const DEPRECATION = "@1772323200";
const SUNSET = "Sun, 01 Mar 2026 00:00:00 GMT";
const CALL_HEADER = "x-emulator-internal-call";

/** A legacy route: its label, whether it has a removal date, and its replacement template. */
interface LegacyInfo {
  label: string;
  replacement?: string;
}

interface Forwarded {
  status: ContentfulStatusCode;
  body: unknown;
}

/** Routes of the legacy auth group. */
export function legacyAuthRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const warned = new Set<string>();
  const calls = new Map<string, { principal: Principal; rid: string }>();

  // The branch-level handlers, reachable only in-process: the caller is handed over by a one-time id.
  const inner = new Hono<EmulatorEnv>();
  inner.use("*", async (c, next) => {
    const call = calls.get(c.req.header(CALL_HEADER) ?? "");
    if (call === undefined) throw notFound("no such internal call");
    c.set("principal", call.principal);
    c.set("rid", call.rid);
    await next();
  });
  inner.route("/", authRoutes(rt));
  inner.onError((err) => {
    throw err;
  });

  const forward = async (c: Context<EmulatorEnv>, method: string, path: string, body?: unknown): Promise<Forwarded> => {
    const id = randomUUID();
    calls.set(id, { principal: c.get("principal"), rid: c.get("rid") });
    try {
      const res = await inner.request(path, {
        method,
        headers: { [CALL_HEADER]: id, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status as ContentfulStatusCode, body: text === "" ? {} : (JSON.parse(text) as unknown) };
    } finally {
      calls.delete(id);
    }
  };

  const link = (c: Context<EmulatorEnv>, info: LegacyInfo, ids: Record<string, string>): void => {
    if (info.replacement === undefined) return;
    const path = info.replacement.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (ids[name] !== undefined ? encodeURIComponent(ids[name]) : whole));
    c.header("Link", `<${new URL(c.req.url).origin}/api/v2${path}>; rel="successor-version"`);
  };

  /** Headers, the removal-date rule, then the handler. */
  const legacy = (method: string, path: string, info: LegacyInfo, handler: (c: Context<EmulatorEnv>, setLink: (ids: Record<string, string>) => void) => Promise<Response>): void => {
    r.on(method, path, async (c) => {
      const dated = info.replacement !== undefined;
      c.header("Deprecation", DEPRECATION);
      if (dated) c.header("Sunset", SUNSET);
      const projectId = c.req.param("project_id");
      link(c, info, projectId !== undefined ? { project_id: projectId } : {});
      if (dated && rt.world.now() >= LEGACY_REMOVAL_MS) {
        if (rt.legacyAuth === "gone") {
          throw new EmulatorHttpError(410, { code: "endpoint_removed", message: `${info.label} was removed on 2026-03-01; use ${method} ${info.replacement ?? ""} instead` });
        }
        if (!warned.has(info.label)) {
          warned.add(info.label);
          rt.notice(`warning: a client called the legacy auth route ${info.label}, past its removal date (2026-03-01); it is served for compatibility, use ${method} ${info.replacement ?? ""}`);
        }
      }
      return handler(c, (ids) => link(c, info, ids));
    });
  };

  const rawBody = async (c: Context<EmulatorEnv>): Promise<Record<string, unknown> | undefined> => {
    const text = await c.req.text();
    if (text.trim() === "") return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw badRequest(`the request body is not valid JSON (${(err as Error).message}); send a JSON object with Content-Type: application/json`);
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw badRequest("the request body must be a JSON object");
    return raw as Record<string, unknown>;
  };

  /** The project and the replacement's branch: `branch_id` if given, else the default branch. */
  const target = (c: Context<EmulatorEnv>, projectId: string, branchId: unknown): { project: ProjectRec; branch: BranchRec } => {
    rt.world.now();
    const project = visibleProject(rt.world, c, projectId);
    if (typeof branchId === "string") checkId("branch_id", branchId);
    return { project, branch: legacyTargetBranch(rt.world, project, typeof branchId === "string" ? branchId : undefined) };
  };

  const reply = (c: Context<EmulatorEnv>, f: Forwarded): Response => c.json(f.body as Record<string, unknown>, f.status);
  const branchPath = (project: ProjectRec, branch: BranchRec): string => `/projects/${project.id}/branches/${branch.id}/auth`;

  legacy("POST", "/projects/auth/keys", { label: "POST /projects/auth/keys" }, async (c) => {
    const body = await readJson(c, LegacyAuthProjectRequestSchema);
    const { project, branch } = target(c, body.project_id, body.branch_id);
    return c.json(authCredentialsView(rt.world, project, branch, findProviderAuth(project, branch, body.auth_provider)), 201);
  });

  legacy("POST", "/projects/auth/transfer_ownership", { label: "POST /projects/auth/transfer_ownership" }, async (c) => {
    const body = await readJson(c, LegacyAuthProjectRequestSchema);
    const { project, branch } = target(c, body.project_id, body.branch_id);
    const id = startAuthTransfer(rt.world, project, branch, body.auth_provider);
    return c.json({ url: `${new URL(c.req.url).origin}/__emulator/auth-transfer/${id}` });
  });

  legacy("POST", "/projects/auth/create", { label: "POST /projects/auth/create", replacement: "/projects/{project_id}/branches/{branch_id}/auth" }, async (c, setLink) => {
    const body = await readJson(c, LegacyAuthCreateRequestSchema);
    const { project, branch } = target(c, body.project_id, body.branch_id);
    setLink({ project_id: project.id, branch_id: branch.id });
    const database = body.database_name ?? projectDefaultDatabase(rt.world, project);
    return reply(c, await forward(c, "POST", branchPath(project, branch), { auth_provider: body.auth_provider, ...(database !== undefined ? { database_name: database } : {}) }));
  });

  legacy("POST", "/projects/auth/user", { label: "POST /projects/auth/user", replacement: "/projects/{project_id}/branches/{branch_id}/auth/users" }, async (c, setLink) => {
    const body = await readJson(c, LegacyAuthUserCreateRequestSchema);
    const { project, branch } = target(c, body.project_id, body.branch_id);
    setLink({ project_id: project.id, branch_id: branch.id });
    if (branch.auth !== undefined && branch.auth.provider !== body.auth_provider) throw notFound(`no ${body.auth_provider} auth integration on branch ${branch.id}`);
    return reply(c, await forward(c, "POST", `${branchPath(project, branch)}/users`, { email: body.email, ...(body.name !== undefined ? { name: body.name } : {}) }));
  });

  /** Project-scoped aliases whose body (if any) passes through unchanged. */
  const passThrough: [string, string, string][] = [
    ["POST", "/oauth_providers", "/oauth_providers"],
    ["GET", "/oauth_providers", "/oauth_providers"],
    ["PATCH", "/oauth_providers/:oauth_provider_id", "/oauth_providers/{oauth_provider_id}"],
    ["DELETE", "/oauth_providers/:oauth_provider_id", "/oauth_providers/{oauth_provider_id}"],
    ["POST", "/domains", "/domains"],
    ["GET", "/domains", "/domains"],
    ["DELETE", "/domains", "/domains"],
    ["DELETE", "/users/:auth_user_id", "/users/{auth_user_id}"],
    ["GET", "/email_server", "/email_provider"],
    ["PATCH", "/email_server", "/email_provider"],
  ];
  for (const [method, suffix, replacementSuffix] of passThrough) {
    const template = `/projects/{project_id}/auth${suffix.replace(/:([a-z_]+)/g, "{$1}")}`;
    legacy(method, `/projects/:project_id/auth${suffix}`, { label: `${method} ${template}`, replacement: `/projects/{project_id}/branches/{branch_id}/auth${replacementSuffix}` }, async (c, setLink) => {
      const body = method === "GET" ? undefined : await rawBody(c);
      const { project, branch } = target(c, c.req.param("project_id") ?? "", body?.["branch_id"]);
      const params = { ...c.req.param(), project_id: project.id, branch_id: branch.id };
      setLink(params);
      const rest = replacementSuffix.replace(/\{([a-z_]+)\}/g, (_w, name: string) => encodeURIComponent((params as Record<string, string>)[name] ?? ""));
      return reply(c, await forward(c, method, `${branchPath(project, branch)}${rest}`, body));
    });
  }

  legacy("DELETE", "/projects/:project_id/auth/integration/:auth_provider", { label: "DELETE /projects/{project_id}/auth/integration/{auth_provider}", replacement: "/projects/{project_id}/branches/{branch_id}/auth" }, async (c, setLink) => {
    const body = await rawBody(c);
    const { project, branch } = target(c, c.req.param("project_id") ?? "", body?.["branch_id"]);
    setLink({ project_id: project.id, branch_id: branch.id });
    const provider = c.req.param("auth_provider");
    if (branch.auth !== undefined && branch.auth.provider !== provider) throw notFound(`no ${provider} auth integration on branch ${branch.id} of project ${project.id}`);
    return reply(c, await forward(c, "DELETE", branchPath(project, branch), body?.["delete_data"] !== undefined ? { delete_data: body["delete_data"] } : undefined));
  });

  legacy("GET", "/projects/:project_id/auth/integrations", { label: "GET /projects/{project_id}/auth/integrations", replacement: "/projects/{project_id}/branches/{branch_id}/auth" }, async (c, setLink) => {
    const { project, branch } = target(c, c.req.param("project_id") ?? "", undefined);
    setLink({ project_id: project.id, branch_id: branch.id });
    const data: unknown[] = [];
    for (const b of project.branches.values()) {
      if (b.auth === undefined) continue;
      const f = await forward(c, "GET", branchPath(project, b));
      if (f.status === 200) data.push(f.body);
    }
    return c.json({ data });
  });

  return r;
}

/** `/__emulator/auth-transfer/<id>`: completes a legacy auth ownership transfer (authorised by its id). */
export function authTransferRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  r.get("/:id", (c) => {
    const transfer = completeAuthTransfer(rt.world, c.req.param("id"));
    return c.json({ transferred: true, project_id: transfer.projectId, branch_id: transfer.branchId });
  });
  return r;
}
