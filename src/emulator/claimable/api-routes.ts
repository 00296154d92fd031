import { randomUUID } from "node:crypto";
import type { ClaimableEnv } from "./env.js";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { claimableFaults, type FaultSource } from "./fault-middleware.js";
import { isCanonicalUuid } from "./ids.js";
import { toWireRecord, type ClaimableRecord } from "./record.js";
import type { ClaimableService } from "./service.js";

/** Options of {@link claimableApiRoutes}. */
export interface ClaimableApiOptions {
  readonly service: ClaimableService;
  /** Origin of `claim_url` (the emulator's URL). @default the request's origin */
  readonly origin?: () => string;
  /** The emulator's log (causes of 500s). @default discard */
  readonly log?: (line: string) => void;
  /** JSON body limit in bytes. @default 1048576 */
  readonly maxBodyBytes?: number;
  /** The emulator's latency and fault rules. @default none */
  readonly faults?: FaultSource;
  /** Resolves once every applied change is durable; reads wait for it. @default at once */
  readonly durable?: () => Promise<void>;
}

type ErrorCodeName = "missing_referrer" | "database_not_found" | "create_failed" | "route_not_found" | "method_not_allowed" | "payload_too_large";

const MISSING_REFERRER_HINT = "Send a non-empty \"ref\" naming the app or tool that creates the database, e.g. {\"ref\": \"my-app\"}.";
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The claimable database API (`/api/v1`): create, create with a client-chosen id,
 * get. No authentication; `Content-Type` is not checked; every response has `Cache-Control:
 * no-store`. Mount with `app.route("/", claimableApiRoutes(...))`.
 */
export function claimableApiRoutes(options: ClaimableApiOptions): Hono<ClaimableEnv> {
  const { service } = options;
  const log = options.log ?? (() => undefined);
  const app = new Hono<ClaimableEnv>();

  app.use("/api/v1/*", async (c, next) => {
    if (!c.get("rid")) {
      const incoming = c.req.header("x-request-id");
      c.set("rid", incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID());
      c.header("X-Request-ID", c.get("rid"));
    }
    c.header("Cache-Control", "no-store");
    await next();
  });
  if (options.faults) app.use("/api/v1/*", claimableFaults(options.faults));
  app.use(
    "/api/v1/*",
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 1_048_576,
      onError: (c) => fail(c, 413, "payload_too_large", `The request body is larger than ${options.maxBodyBytes ?? 1_048_576} bytes.`),
    }),
  );

  const create = async (c: Context<ClaimableEnv>, id: string | undefined): Promise<Response> => {
    const body = parseBody(await c.req.text());
    if (body === null) return createFailed(c, "the body is not a JSON object");
    const ref = body["ref"];
    const logical = body["enable_logical_replication"];
    if (ref !== undefined && typeof ref !== "string") return createFailed(c, "ref must be a string");
    if (logical !== undefined && typeof logical !== "boolean") return createFailed(c, "enable_logical_replication must be a boolean");
    const referrer = (ref ?? c.req.query("referrer") ?? "").trim();
    if (referrer === "") return fail(c, 400, "missing_referrer", "Missing referrer", MISSING_REFERRER_HINT);
    if (id !== undefined && !isCanonicalUuid(id)) return createFailed(c, `the id "${id}" is not a canonical UUID`);
    try {
      const { record, created } = await service.create({ id, ref: referrer, logicalReplication: logical ?? false });
      return c.json(wire(c, record), created ? 201 : 200);
    } catch (err) {
      return createFailed(c, err instanceof Error ? err.message : String(err));
    }
  };

  const createFailed = (c: Context<ClaimableEnv>, cause: string): Response => {
    log(`POST ${c.req.path} rid=${c.get("rid")}: create failed: ${cause}`);
    return fail(c, 500, "create_failed", "Failed to create the database.");
  };

  const wire = (c: Context<ClaimableEnv>, record: ClaimableRecord): ReturnType<typeof toWireRecord> =>
    toWireRecord(record, options.origin?.() ?? new URL(c.req.url).origin, service.urls(record));

  app.use("/api/v1/*", async (c, next) => {
    if (c.req.method === "GET") await options.durable?.();
    await service.materialize();
    await next();
  });
  app.post("/api/v1/database", (c) => create(c, undefined));
  app.post("/api/v1/database/:id", (c) => create(c, c.req.param("id")));
  app.get("/api/v1/database/:id", (c) => {
    const record = service.get(c.req.param("id"));
    if (!record) return fail(c, 400, "database_not_found", "Database not found");
    return c.json(wire(c, record), 200);
  });
  app.all("/api/v1/database", (c) => methodNotAllowed(c, "POST"));
  app.all("/api/v1/database/:id", (c) => methodNotAllowed(c, "GET, POST"));
  app.all("/api/v1/*", (c) => fail(c, 404, "route_not_found", `${c.req.method} ${c.req.path} is not a route of the claimable database API`));
  return app;
}

function methodNotAllowed(c: Context<ClaimableEnv>, allow: string): Response {
  c.header("Allow", allow);
  return fail(c, 405, "method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${allow}`);
}

function fail(c: Context<ClaimableEnv>, status: 400 | 404 | 405 | 413 | 500, code: ErrorCodeName, message: string, hint?: string): Response {
  return c.json({ code, message, ...(hint === undefined ? {} : { hint }), request_id: c.get("rid") }, status);
}

/** Zero length counts as `{}`; anything else must be a JSON object. */
function parseBody(text: string): Record<string, unknown> | null {
  if (text.length === 0) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
