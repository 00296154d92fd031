/** How the engine reports progress: a listener that never throws, read waves and retries as events. */
import type { PlatformApi } from "../api/platform-api.js";
import { observedApi } from "../api/request-observer.js";
import type { EngineEvent } from "../model/events.js";

/** A listener wrapper that never throws. */
export function safeEmitter(onEvent: ((event: EngineEvent) => void) | undefined): (event: EngineEvent) => void {
  return (event) => {
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch {
      // Listener errors are swallowed by contract.
    }
  };
}

/**
 * Runs the reads of `wave` through `api`'s sibling that emits one `read` event per HTTP request
 * it completes (`request` is `"GET /path"`; `status` is absent when no response came). An
 * adapter other than `createPlatformApi`'s reports no requests, so it yields no `read` events.
 */
export function inReadWave<T>(api: PlatformApi, emit: (event: EngineEvent) => void, wave: number, reads: (api: PlatformApi) => Promise<T>): Promise<T> {
  return reads(
    observedApi(api, {
      onRequest: (r) => emit({ type: "read", wave, request: `${r.method} ${r.path}`, ...(r.status === undefined ? {} : { status: r.status }), ms: r.ms, requestId: r.requestId }),
    }),
  );
}

/**
 * The operation's runtime with a client whose retries reach `emit` as `retry` events, whether
 * the engine built the client or the caller passed one from `createPlatformApi`.
 */
export function withApiEvents<R extends { api: PlatformApi; emit: (event: EngineEvent) => void }>(rt: R): R {
  return { ...rt, api: observedApi(rt.api, { onRetry: rt.emit }) };
}
