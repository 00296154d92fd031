/**
 * Per-request reports for whoever is reading (the engine's `read` events, engine.md §8.4).
 * A listener is bound to an async scope rather than to a client, so it sees every request the
 * HTTP client makes inside that scope, including through an `api` the caller built with
 * `createPlatformApi` (as the CLI does). Other adapters report nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One logical request (retries included), as the transport saw it. Never carries secrets. */
export interface RequestReport {
  method: string;
  /** Path below the API base, without the query string. */
  path: string;
  /** The final HTTP status; absent when no response came. */
  status?: number;
  /** From the first attempt to the final answer, retries and their waits included. */
  ms: number;
  /** The id sent as `X-Request-ID` (the server's, when it answered with its own). */
  requestId: string;
}

const listeners = new AsyncLocalStorage<(report: RequestReport) => void>();

/** Runs `fn`; every request the HTTP client completes within it is passed to `listener`. */
export function observeRequests<T>(listener: (report: RequestReport) => void, fn: () => Promise<T>): Promise<T> {
  return listeners.run(listener, fn);
}

/** Passes `report` to the listener of the current scope, if any; its exceptions are swallowed. */
export function reportRequest(report: RequestReport): void {
  const listener = listeners.getStore();
  if (listener === undefined) return;
  try {
    listener(report);
  } catch {
    // A listener's failure must not break the call (engine.md §8.4).
  }
}
