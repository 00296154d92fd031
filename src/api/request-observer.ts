/**
 * Per-request reports and retries for the operation in progress (the engine's `read` and
 * `retry` events). Listeners are bound to an async scope rather than to a
 * client, so they see every request the HTTP client makes inside that scope, including through
 * an `api` the caller built with `createPlatformApi` (as the CLI does). Other adapters report
 * nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ApiRetryEvent } from "../model/events.js";

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

/** What an async scope listens to; nested scopes inherit the listeners they do not set. */
export interface RequestObserver {
  /** Each completed logical request. */
  onRequest?: (report: RequestReport) => void;
  /** Each retry the client is about to make. */
  onRetry?: (event: ApiRetryEvent) => void;
}

const scope = new AsyncLocalStorage<RequestObserver>();

/** Runs `fn`; requests and retries of the HTTP client within it go to `observer`. */
export function observeRequests<T>(observer: RequestObserver, fn: () => Promise<T>): Promise<T> {
  return scope.run({ ...scope.getStore(), ...observer }, fn);
}

/** Passes `report` to the current scope's `onRequest`, if any; its exceptions are swallowed. */
export function reportRequest(report: RequestReport): void {
  safely(() => scope.getStore()?.onRequest?.(report));
}

/** Passes `event` to the current scope's `onRetry`, if any; its exceptions are swallowed. */
export function reportRetry(event: ApiRetryEvent): void {
  safely(() => scope.getStore()?.onRetry?.(event));
}

function safely(call: () => void): void {
  try {
    call();
  } catch {
    // A listener's failure must not break the call.
  }
}
