/**
 * Latency and fault rules on `/api/v1`: the emulator's fault engine
 * decides, this middleware applies its verdict to the claimable API, whose error body has no
 * `issues` and whose requests carry no key.
 */
import type { Context, MiddlewareHandler } from "hono";
import { CODE_BY_STATUS } from "../http/errors.js";
import { drawFaults, markInjected, sleep, type FaultHit, type FaultSource } from "../faults.js";
import type { ClaimableEnv } from "./env.js";

/** The part of the emulator's fault engine the claimable API uses. */
export type { FaultSource };

function injected(c: Context<ClaimableEnv>, hit: FaultHit): Response {
  const status = hit.status ?? 503;
  if (hit.retryAfterS !== undefined) c.header("Retry-After", String(hit.retryAfterS));
  const body = { code: CODE_BY_STATUS[status] ?? "internal_error", message: `injected ${status} fault: the service failed to handle the request; retry later`, request_id: c.get("rid") };
  return new Response(JSON.stringify(body), { status, headers: { ...Object.fromEntries(c.res.headers), "content-type": "application/json" } });
}

function reset(c: Context<ClaimableEnv>): void {
  c.env?.incoming?.socket?.destroy();
  c.res = c.body(null, 500);
}

/** Applies latency, then `before` faults (nothing runs), then `after` faults (the change is kept). */
export function claimableFaults(faults: FaultSource): MiddlewareHandler<ClaimableEnv> {
  return async (c, next) => {
    const { before, after, delayed } = await drawFaults(faults, c.req.method, c.req.path, c.get("rid"));
    if (before !== undefined) {
      if (before.kind === "reset") reset(c);
      else c.res = injected(c, before);
      markInjected(c, [...delayed, before]);
      return;
    }
    await next();
    markInjected(c, delayed);
    if (after === undefined) return;
    if (after.kind === "delay") await sleep(after.delayMs ?? 0);
    else if (after.kind === "reset") reset(c);
    else c.res = injected(c, after);
    markInjected(c, [...delayed, after]);
  };
}
