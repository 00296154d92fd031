/**
 * Test routes under `/__emulator/`: JSON, no latency or faults, allowed only for
 * the bootstrap key and seed keys with `admin: true`; `GET /__emulator/health` needs no key.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { changeClock } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, forbidden, notFound, unauthorized } from "../http/errors.js";
import { readJson } from "../http/validate.js";
import { operationView } from "../http/views.js";
import type { FaultRule } from "../faults.js";
import { parseSeedDocument } from "../seed.js";
import type { EmulatorCore } from "../control.js";
import { isPlatformError } from "../../errors/index.js";
import { authTransferRoutes } from "./legacy-auth.js";
import { presignedObjectRoutes } from "./objects.js";

const ClockBodySchema = z.union([
  z.object({ advance_ms: z.number().min(0) }),
  z.object({ set: z.union([z.string(), z.number()]) }),
  z.object({ mode: z.enum(["manual", "system"]) }),
]);

const FaultRuleSchema = z.object({
  kind: z.enum(["status", "reset", "delay", "opfail"]),
  status: z.number().int().optional(),
  rate: z.number().min(0).max(1).optional(),
  nth: z.array(z.number().int().min(1)).optional(),
  times: z.number().int().min(1).optional(),
  retryAfterS: z.number().int().min(0).optional(),
  delayMs: z.number().int().min(0).optional(),
  phase: z.enum(["before", "after"]).optional(),
  methods: z.array(z.string()).optional(),
  path: z.string().optional(),
  action: z.string().optional(),
});

const FaultsBodySchema = z.object({ plan: z.union([z.string(), z.array(FaultRuleSchema), z.null()]), seed: z.number().int().optional() });
const SystemOperationSchema = z.object({ project_id: z.string(), action: z.string().optional(), duration_ms: z.number().int().min(0) });
const ResetSchema = z.object({ seed: z.unknown().optional() });

/** Mounts the `/__emulator/*` routes on the app, with the functions' test routes (`/invocations`, `/triggers/{id}/fire`). */
export function mountAdminRoutes(app: Hono<EmulatorEnv>, control: EmulatorCore, functions: Hono<EmulatorEnv>): void {
  const r = new Hono<EmulatorEnv>();
  const adminOnly: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const principal = token !== undefined ? control.world.authenticate(token) : null;
    if (principal === null) throw unauthorized();
    if (!principal.key.admin) throw forbidden("the /__emulator routes need the bootstrap key or a seed key with admin: true");
    c.set("principal", principal);
    await next();
  };

  // Acknowledged changes are durable: reset, clock, presigned uploads, auth transfers;
  // reads (state, object downloads) wait until every applied change is.
  r.use("*", async (c, next) => {
    if (c.req.method === "GET" && c.req.path !== "/__emulator/health") await control.durable();
    await next();
    const mutates = c.req.method !== "GET" || c.req.path.startsWith("/__emulator/auth-transfer/");
    if (mutates && c.res.status < 300) await control.commit();
  });
  r.get("/health", (c) => c.json({ ok: true }));
  r.use("/state", adminOnly);
  r.use("/reset", adminOnly);
  r.use("/clock", adminOnly);
  r.use("/faults", adminOnly);
  r.use("/requests", adminOnly);
  r.use("/system-operation", adminOnly);
  r.use("/invocations", adminOnly);
  r.use("/triggers/*", adminOnly);

  r.get("/state", (c) => c.json(control.snapshot({ secrets: c.req.query("secrets") === "true" })));

  r.post("/reset", async (c) => {
    const body = await readJson(c, ResetSchema, { optional: true, anyNames: true });
    try {
      await control.reset(body.seed === undefined ? undefined : parseSeedDocument(body.seed));
    } catch (err) {
      if (isPlatformError(err)) throw badRequest(err.message);
      throw err;
    }
    return c.json({ ok: true });
  });

  r.post("/clock", async (c) => {
    changeClock(control.clock, await readJson(c, ClockBodySchema));
    control.world.now();
    // Answers once the trigger deliveries the move made due are over, so the caller can read their outcome.
    await control.drain();
    return c.json({ now: new Date(control.clock.now()).toISOString(), mode: control.clock.mode });
  });

  r.put("/faults", async (c) => {
    const body = await readJson(c, FaultsBodySchema);
    try {
      control.faults.set(body.plan as string | FaultRule[] | null, body.seed);
    } catch (err) {
      throw badRequest((err as Error).message);
    }
    return c.json({ plan: control.faults.rules() });
  });

  r.get("/requests", (c) => {
    const limit = Number(c.req.query("limit") ?? "1000");
    return c.json({ requests: control.requests(Number.isFinite(limit) && limit > 0 ? limit : 1000) });
  });

  r.post("/system-operation", async (c) => {
    const body = await readJson(c, SystemOperationSchema);
    if (!control.world.projects.has(body.project_id)) throw notFound(`project ${body.project_id} not found`);
    const op = control.lockProject(body.project_id, body.duration_ms, body.action ?? "check_availability");
    return c.json({ operation: operationView(op) });
  });

  r.route("/", functions);
  r.route("/objects", presignedObjectRoutes(control));
  r.route("/auth-transfer", authTransferRoutes(control));
  app.route("/__emulator", r);
}
