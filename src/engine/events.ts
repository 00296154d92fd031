/** How the engine reports progress: a listener that never throws, read waves and retries as events. */
import { observeRequests } from "../api/request-observer.js";
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
 * Runs the reads of `wave`, emitting one `read` event per HTTP request the client completes
 * (`request` is `"GET /path"`; `status` is absent when no response came). An adapter other
 * than `createPlatformApi`'s reports no requests, so it yields no `read` events.
 */
export function inReadWave<T>(emit: (event: EngineEvent) => void, wave: number, reads: () => Promise<T>): Promise<T> {
  return observeRequests(
    { onRequest: (r) => emit({ type: "read", wave, request: `${r.method} ${r.path}`, ...(r.status === undefined ? {} : { status: r.status }), ms: r.ms, requestId: r.requestId }) },
    reads,
  );
}

/**
 * Runs an operation so that the HTTP client's retries reach `emit` as `retry` events, whether
 * the engine built the client or the caller passed one from `createPlatformApi`.
 */
export function withApiEvents<T>(emit: (event: EngineEvent) => void, operation: () => Promise<T>): Promise<T> {
  return observeRequests({ onRetry: emit }, operation);
}
