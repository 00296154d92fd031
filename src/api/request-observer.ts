/**
 * Per-request reports and retries for the operation in progress (the engine's `read` and
 * `retry` events). Listeners are bound to a client: {@link observedApi} hands out a sibling of a
 * client `createPlatformApi` made (same options, same connections) whose requests report to the
 * listeners, so operations running at once each see their own requests only. Other adapters
 * report nothing. No async scope is used: an `AsyncLocalStorage` would run a hook for every
 * promise the process creates.
 */
import type { ApiRetryEvent } from "../model/events.js";
import type { PlatformApi } from "./platform-api.js";

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

/** What a client reports to; a sibling's listeners replace those of its client they set. */
export interface RequestObserver {
  /** Each completed logical request. */
  onRequest?: (report: RequestReport) => void;
  /** Each retry the client is about to make. */
  onRetry?: (event: ApiRetryEvent) => void;
}

/**
 * How each client `createPlatformApi` made makes an observed sibling. Kept here rather than on
 * the client, so an adapter (a `Proxy`, say) is never asked for a property it does not have.
 */
const siblings = new WeakMap<object, (observer: RequestObserver) => Required<PlatformApi>>();

/** Marks `api` as a client whose siblings `derive` makes, reporting to the observer given. */
export function observable<A extends Required<PlatformApi>>(api: A, derive: (observer: RequestObserver) => Required<PlatformApi>): A {
  siblings.set(api, derive);
  return api;
}

/**
 * `api`, reporting its requests and retries to `observer` (over the listeners it already
 * reports to): a sibling client for one made by `createPlatformApi`, `api` itself for any other
 * adapter.
 */
export function observedApi<A extends PlatformApi>(api: A, observer: RequestObserver): A {
  const derive = siblings.get(api);
  return derive === undefined ? api : (derive(observer) as unknown as A);
}


/** Passes `report` to `observer.onRequest`, if any; its exceptions are swallowed. */
export function reportRequest(observer: RequestObserver | undefined, report: RequestReport): void {
  safely(() => observer?.onRequest?.(report));
}

/** Passes `event` to `observer.onRetry`, if any; its exceptions are swallowed. */
export function reportRetry(observer: RequestObserver | undefined, event: ApiRetryEvent): void {
  safely(() => observer?.onRetry?.(event));
}

function safely(call: () => void): void {
  try {
    call();
  } catch {
    // A listener's failure must not break the call.
  }
}
