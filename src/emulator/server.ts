/**
 * The emulator's Hono app and its middleware, in the order every request is processed:
 * request id → latency and `before` faults → authentication → routing (404 / 405 / 501) →
 * Content-Type and size limits → the route (visibility, validation, lock, rules) → `after` faults.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { randomUUID } from "node:crypto";
import { RULE_ERROR_STATUS, RuleError } from "./engine/rule-error.js";
import type { EmulatorEnv } from "./http/env.js";
import { compileRouteTemplates, type RouteTemplates } from "./http/route-templates.js";
import { checkRawPath } from "./http/scope.js";
import { CODE_BY_STATUS, EmulatorHttpError, payloadTooLarge, unauthorized } from "./http/errors.js";
import { FAULT_HEADER, drawFaults, markInjected, sleep, type FaultEngine, type FaultHit } from "./faults.js";
import type { RequestLog } from "./request-log.js";
import { M2_ROUTES, SEED_ENDPOINT_INDEX, toHonoPath } from "./route-index.js";
import type { EmulatorRuntime } from "./runtime.js";
import { accessRoutes } from "./routes/access.js";
import { accountRoutes } from "./routes/account.js";
import { advisorRoutes } from "./routes/advisors.js";
import { apiKeyRoutes } from "./routes/api-keys.js";
import { authRoutes } from "./routes/auth.js";
import { authSettingsRoutes } from "./routes/auth-settings.js";
import { branchRoutes } from "./routes/branches.js";
import { branchSchemaRoutes } from "./routes/branch-schema.js";
import { logRoutes } from "./routes/logs.js";
import { customDomainRoutes } from "./routes/custom-domains.js";
import { credentialRoutes } from "./routes/credentials.js";
import { dataApiRoutes } from "./routes/data-api.js";
import { endpointRoutes } from "./routes/endpoints.js";
import { functionRoutes } from "./routes/functions.js";
import { legacyAuthRoutes } from "./routes/legacy-auth.js";
import { objectRoutes } from "./routes/objects.js";
import { operationRoutes } from "./routes/operations.js";
import { projectRoutes } from "./routes/projects.js";
import { roleDatabaseRoutes } from "./routes/roles-databases.js";
import { S3_PATH_PREFIX, s3Routes } from "./s3/routes.js";
import { snapshotRoutes } from "./routes/snapshots.js";
import { storageRoutes } from "./routes/storage.js";
import { triggerRoutes } from "./routes/triggers.js";

/** Everything the app needs besides the routes. */
export interface ServerParts {
  rt: EmulatorRuntime;
  faults: FaultEngine;
  log: RequestLog;
  /** Mounts `/__emulator/*` (admin routes) on the app. */
  mountAdmin: (app: Hono<EmulatorEnv>) => void;
  /** Makes applied changes durable before a 2xx is sent (data dir; a no-op in memory). */
  commit: () => Promise<void>;
  /** Resolves once every applied change is durable; reads wait for it. */
  durable?: () => Promise<void>;
  /** Runs after a successful API mutation, before its answer (running functions follow the records). */
  afterMutation?: () => Promise<void>;
  /** Runs first on every request: the replica's in-memory answers (`replica-answer.ts`); none on a socket. */
  answers?: MiddlewareHandler<EmulatorEnv>;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Paths whose last segment is a credential (presigned object tokens, auth transfer ids): never logged. */
const TOKEN_PATH = /^(\/__emulator\/(?:objects|auth-transfer)\/).+$/;

const API = "/api/v2";
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
const DEPLOYMENT_PATH = /^\/api\/v2\/projects\/[^/]+\/branches\/[^/]+\/functions\/[^/]+\/deployments$/;

interface KnownRoute {
  method: string;
  template: string;
  regex: RegExp;
}

/** Route regexes by template: the same for every app, so each is compiled once per process. */
const TEMPLATE_REGEXES = new Map<string, RegExp>();

/** A route template as a regex body: each `:param` one segment of anything but `/`. */
function templateBody(path: string): string {
  return path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.+?^${}()|[\]\\*]/g, "\\$&")))
    .join("/");
}

function templateRegex(path: string): RegExp {
  let regex = TEMPLATE_REGEXES.get(path);
  if (regex === undefined) {
    regex = new RegExp(`^${templateBody(path)}/?$`);
    TEMPLATE_REGEXES.set(path, regex);
  }
  return regex;
}

/** Per-method templates of {@link methodTemplates}, by their routes: compiled once per process. */
const METHOD_TEMPLATES = new Map<string, ReadonlyMap<string, RouteTemplates>>();

/**
 * Each method's templates, so a request is checked against its method's routes in one walk of
 * their segments (the answer a regex `^(?:a|b|…)/?$` of them would give; `http/route-templates.ts`).
 */
function methodTemplates(routes: readonly KnownRoute[]): ReadonlyMap<string, RouteTemplates> {
  const key = routes.map((r) => `${r.method} ${r.template}`).join("\n");
  let templates = METHOD_TEMPLATES.get(key);
  if (templates === undefined) {
    const byMethod = new Map<string, string[]>();
    for (const r of routes) byMethod.set(r.method, [...(byMethod.get(r.method) ?? []), r.template]);
    templates = new Map([...byMethod].map(([method, list]) => [method, compileRouteTemplates(list)]));
    METHOD_TEMPLATES.set(key, templates);
  }
  return templates;
}

/**
 * Refuses a body over `maxSize` bytes with `tooLarge()`: by its Content-Length when it declares one
 * (the body is then read by the route, straight from the socket), counting it as it streams
 * otherwise. Hono's body limit alone asks for the request's body stream, which turns every request
 * into a web `Request` over the socket (its stream, headers and abort signal).
 */
function limitBody(maxSize: number, tooLarge: () => EmulatorHttpError): MiddlewareHandler<EmulatorEnv> {
  const streamed = bodyLimit({ maxSize, onError: () => { throw tooLarge(); } });
  return async (c, next) => {
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return streamed(c, next);
    if (Number.parseInt(length, 10) > maxSize) throw tooLarge();
    await next();
  };
}

/** The error body as JSON, with the request id. */
export function errorResponse(c: Context<EmulatorEnv>, status: ContentfulStatusCode, body: { code: string; message: string; [k: string]: unknown }, headers: Record<string, string> = {}): Response {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  // The rest of an oversized body is never read, so the connection cannot be reused.
  if (status === 413) c.header("Connection", "close");
  return c.json({ ...body, request_id: c.get("rid") }, status);
}

function faultResponse(c: Context<EmulatorEnv>, hit: FaultHit): Response {
  const status = (hit.status ?? 503) as ContentfulStatusCode;
  const code = CODE_BY_STATUS[status] ?? "internal_error";
  const headers: Record<string, string> = { [FAULT_HEADER]: String(hit.rule) };
  if (hit.retryAfterS !== undefined) headers["Retry-After"] = String(hit.retryAfterS);
  const message =
    status === 423
      ? "project is locked by a system operation (injected fault); retry with backoff"
      : status === 429
        ? "too many requests (injected fault); retry after Retry-After"
        : `injected ${status} fault: the platform failed to handle the request; retry later`;
  return errorResponse(c, status, { code, message }, headers);
}

/** Builds the emulator's Hono app. */
export function createEmulatorApp(parts: ServerParts): Hono<EmulatorEnv> {
  const { rt, faults, log } = parts;
  const app = new Hono<EmulatorEnv>();
  let known: KnownRoute[] = [];
  let emulatedRoutes: KnownRoute[] = [];
  let emulatedByMethod: ReadonlyMap<string, RouteTemplates> = new Map();

  if (parts.answers !== undefined) app.use("*", parts.answers);
  app.use("*", async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const rid = incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set("rid", rid);
    // On a socket, set on Node's response: Node writes it with the answer's headers, and an answer
    // with no other header than its Content-Type then needs no web `Headers` at all (its headers stay
    // a plain object up to the socket). Without one (the replica, `app.request`), set before the route
    // answers, so it goes into the answer as it is built: set after, it would make Hono copy the
    // finished response (two `Response` objects and a body stream per request).
    const outgoing = c.env?.outgoing;
    if (outgoing !== undefined) outgoing.setHeader("x-request-id", rid);
    else c.header("X-Request-ID", rid);
    await next();
    if (!log.keeps) return; // nothing to build an entry for
    const reset = c.env?.incoming?.socket?.destroyed === true;
    log.add({
      time: new Date().toISOString(),
      method: c.req.method,
      path: c.req.path.replace(TOKEN_PATH, "$1[redacted]"),
      status: reset ? "reset" : c.res.status,
      durationMs: performance.now() - started,
      requestId: rid,
      fault: c.get("fault") ?? "-",
      ...(c.get("ignored") !== undefined ? { ignored: c.get("ignored") } : {}),
    });
  });

  const jsonLimit = limitBody(rt.limits.jsonBodyBytes, () => payloadTooLarge(`the JSON body exceeds ${rt.limits.jsonBodyBytes} bytes; send a smaller body`));
  const multipartLimit = limitBody(rt.limits.multipartBodyBytes, () => payloadTooLarge(`the multipart body exceeds ${rt.limits.multipartBodyBytes} bytes; the archive must be at most ${rt.limits.zipBytes} bytes`));

  const apiMiddleware: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
    const { before, after, delayed } = await drawFaults(faults, c.req.method, c.req.path, c.get("rid"));
    if (before !== undefined) {
      if (before.kind === "reset") {
        c.env.incoming.socket.destroy();
        c.res = c.body(null, 500);
      } else c.res = faultResponse(c, before);
      markInjected(c, [...delayed, before]);
      return;
    }
    try {
      await runRequest(c, next);
    } finally {
      markInjected(c, delayed);
    }
    if (after !== undefined) {
      if (after.kind === "delay") await sleep(after.delayMs ?? 0);
      else if (after.kind === "reset") c.env.incoming.socket.destroy();
      else c.res = faultResponse(c, after);
      markInjected(c, [...delayed, after]);
    }
  };
  const runRequest: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
    if (READ_METHODS.has(c.req.method)) await parts.durable?.();
    const header = c.req.header("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const principal = token !== undefined ? rt.world.authenticate(token) : null;
    if (principal === null) throw unauthorized();
    checkRawPath(c.env?.incoming?.url ?? c.req.path);
    principal.key.lastUsedAt = rt.world.clock.now();
    principal.key.lastUsedFrom = c.env?.incoming?.socket?.remoteAddress ?? "";
    c.set("principal", principal);
    const method = c.req.method;
    const hasBody = (c.req.header("content-length") ?? "0") !== "0" || c.req.header("transfer-encoding") !== undefined;
    if (method !== "GET" && method !== "HEAD" && hasBody) {
      const type = (c.req.header("content-type") ?? "").toLowerCase();
      const path = c.req.path;
      const isKnown = emulatedByMethod.get(method)?.matches(path) === true;
      if (isKnown) {
        const multipart = DEPLOYMENT_PATH.test(path);
        const ok = multipart ? type.startsWith("multipart/form-data") : /^application\/([a-z.+-]+\+)?json\b/.test(type);
        if (!ok) throw new EmulatorHttpError(415, { code: "unsupported_media_type", message: `Content-Type "${type || "(none)"}" is not accepted here; send ${multipart ? "multipart/form-data" : "application/json"}` });
        await (multipart ? multipartLimit : jsonLimit)(c, next);
      } else await next();
    } else await next();
    if (!READ_METHODS.has(method) && c.res.status < 300) {
      await parts.commit();
      await parts.afterMutation?.();
    }
  };
  app.use(`${API}/*`, apiMiddleware);
  const commitClaimable: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
    await next();
    if (!READ_METHODS.has(c.req.method) && c.res.status < 300) await parts.commit();
  };
  app.use("/api/v1/*", commitClaimable);
  app.use("/claim/*", commitClaimable);

  parts.mountAdmin(app);
  app.route(S3_PATH_PREFIX, s3Routes(rt, parts.commit));
  for (const group of [projectRoutes, accessRoutes, advisorRoutes, operationRoutes, branchRoutes, endpointRoutes, roleDatabaseRoutes, authRoutes, authSettingsRoutes, dataApiRoutes, storageRoutes, objectRoutes, legacyAuthRoutes, functionRoutes, triggerRoutes, customDomainRoutes, credentialRoutes, apiKeyRoutes, accountRoutes, snapshotRoutes, branchSchemaRoutes, logRoutes]) {
    app.route(API, group(rt));
  }

  emulatedRoutes = app.routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method, template: r.path, regex: templateRegex(r.path) }));
  emulatedByMethod = methodTemplates(emulatedRoutes);
  const emulated = new Set(emulatedRoutes.map((r) => `${r.method} ${r.template}`));
  for (const entry of [...SEED_ENDPOINT_INDEX, ...M2_ROUTES]) {
    const [method = "GET", template = "/"] = entry.split(" ");
    const honoPath = API + toHonoPath(template);
    if (emulated.has(`${method} ${honoPath}`)) continue;
    app.on(method, honoPath, (c) =>
      errorResponse(c, 501, { code: "not_implemented", message: `${method} ${template} is not emulated by the local emulator` }),
    );
  }
  known = app.routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method, template: r.path, regex: templateRegex(r.path) }));

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = [...new Set(known.filter((k) => k.regex.test(path)).map((k) => k.method))];
    if (allowed.length > 0) {
      return errorResponse(c, 405, { code: "method_not_allowed", message: `${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}` }, { Allow: allowed.join(", ") });
    }
    return errorResponse(c, 404, { code: "route_not_found", message: `no route ${c.req.method} ${path}; API routes start with ${API}` });
  });

  app.onError((err, c) => {
    if (err instanceof EmulatorHttpError) return errorResponse(c, err.status as ContentfulStatusCode, { ...err.answer }, err.headers);
    if (err instanceof RuleError) {
      const issues = err.field !== undefined ? { issues: [{ path: err.field, message: err.issue }] } : {};
      return errorResponse(c, RULE_ERROR_STATUS[err.kind], { code: err.code, message: err.message, ...(err.reason !== undefined ? { reason: err.reason } : {}), ...issues });
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      return errorResponse(c, status, { code: status === 413 ? "payload_too_large" : status === 400 ? "invalid_request" : (CODE_BY_STATUS[status] ?? "internal_error"), message: err.message });
    }
    log.notice(`internal error on ${c.req.method} ${c.req.path} (request ${c.get("rid")}): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return errorResponse(c, 500, { code: "internal_error", message: `the emulator failed on this request (request id ${c.get("rid")}); see its stderr` });
  });

  return app;
}
