/**
 * Options of `createPlatformApi` and their validation. Pure: turns the
 * caller's options into a transport configuration or a `PlatformError` naming the option.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { optionDetailValue, shownOptionValue } from "../errors/option-value.js";
import { LIBRARY_VERSION } from "../version.js";
import { senderFor } from "./node-http-send.js";
import type { RequestObserver } from "./request-observer.js";
import type { ApiEvent, TransportConfig } from "./transport.js";

/** The production management API. */
export const DEFAULT_API_HOST = "https://console.neon.tech/api/v2";

/** Time limits in milliseconds. */
export interface PlatformApiTimeouts {
  /** Per attempt of an ordinary request. @default 30000 */
  requestMs: number;
  /** Per attempt of a deployment upload. @default 120000 */
  uploadMs: number;
  /** Waiting for control-plane operations. @default 300000 */
  operationMs: number;
  /** Waiting for a function build (used by the engine). @default 600000 */
  deploymentMs: number;
}

/** Tick of the branch's watcher of operations and builds: from `initialMs`, ×1.5 per idle tick, capped at `maxMs`. */
export interface PlatformApiPolling {
  /** @default 100 */
  initialMs: number;
  /** @default 1000 */
  maxMs: number;
}

/** Options of `createPlatformApi`. */
export interface PlatformApiOptions {
  /** The bearer API key (trimmed). Never logged. */
  apiKey: string;
  /** `http(s)` URL; a bare origin gets `/api/v2`. @default "https://console.neon.tech/api/v2" */
  apiHost?: string;
  timeouts?: Partial<PlatformApiTimeouts>;
  polling?: Partial<PlatformApiPolling>;
  /** Receives `retry` events; its exceptions are swallowed. */
  onEvent?: (event: ApiEvent) => void;
  /**
   * Aborting cancels the in-flight request and any wait (`PLATFORM_CANCELLED`); a mutation
   * aborted in flight may have landed, so it reports `PLATFORM_OUTCOME_UNKNOWN`.
   */
  signal?: AbortSignal;
  /**
   * Sends every request through this `fetch` (a proxy agent's, a test double, an in-process app).
   * @default Node's `http`/`https` with a keep-alive agent
   */
  fetch?: typeof globalThis.fetch;
  /** Test seam: waits between retries and polls. @default a timer honouring the signal */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Test seam: jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Test seam: the clock for operation time limits. @default Date.now */
  now?: () => number;
}

/** Defaults of {@link PlatformApiTimeouts}. */
export const DEFAULT_TIMEOUTS: PlatformApiTimeouts = { requestMs: 30_000, uploadMs: 120_000, operationMs: 300_000, deploymentMs: 600_000 };
/** Defaults of {@link PlatformApiPolling}. */
export const DEFAULT_POLLING: PlatformApiPolling = { initialMs: 100, maxMs: 1_000 };

/** The validated configuration a client runs on. */
export interface ClientConfig {
  transport: TransportConfig;
  timeouts: PlatformApiTimeouts;
  polling: PlatformApiPolling;
}

/** Validates the options; throws `PLATFORM_MISSING_API_KEY` or `PLATFORM_INVALID_OPTIONS`. */
export function resolveClientOptions(options: PlatformApiOptions): ClientConfig {
  const apiKey = typeof options.apiKey === "string" ? options.apiKey.trim() : "";
  if (apiKey === "") {
    throw new PlatformError(ErrorCode.MISSING_API_KEY, "No API key: pass `apiKey` (CLI: SVC_API_KEY or --api-key) or an `api` adapter.", {
      details: { operation: "createPlatformApi" },
    });
  }
  const timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts) };
  for (const [name, value] of Object.entries(timeouts)) checkPositive(`timeouts.${name}`, value);
  const polling = { ...DEFAULT_POLLING, ...definedOnly(options.polling) };
  checkPositive("polling.initialMs", polling.initialMs);
  checkPositive("polling.maxMs", polling.maxMs);
  if (polling.maxMs < polling.initialMs) invalid("polling.maxMs", polling.maxMs, "must be at least polling.initialMs");
  return {
    timeouts,
    polling,
    transport: {
      apiKey,
      baseUrl: normalizeApiHost(options.apiHost),
      userAgent: `svc-config/${LIBRARY_VERSION}`,
      send: senderFor(options.fetch),
      requestMs: timeouts.requestMs,
      uploadMs: timeouts.uploadMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      sleep: options.sleep ?? sleepWithSignal,
      random: options.random ?? Math.random,
      newRequestId: randomUUID,
      now: options.now ?? Date.now,
    },
  };
}

/**
 * The base URL for `apiHost`: must be `http(s)`, without query or fragment; a trailing `/` is
 * dropped and a bare origin gets `/api/v2`.
 */
export function normalizeApiHost(apiHost: string | undefined): string {
  if (apiHost === undefined) return DEFAULT_API_HOST;
  let url: URL;
  try {
    url = new URL(apiHost.trim());
  } catch {
    return invalid("apiHost", apiHost, "must be an http(s) URL such as https://console.neon.tech/api/v2");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") invalid("apiHost", apiHost, "must use http or https");
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    invalid("apiHost", apiHost, "must not contain credentials, a query or a fragment");
  }
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path === "" ? "/api/v2" : path}`;
}

/**
 * The sleeps waiting on each caller signal, so a signal gets one `abort` listener however many
 * retries wait at once: one listener per sleep made Node print a MaxListenersExceededWarning on the
 * user's terminal once more than 10 requests waited to retry together (128 in flight failing at once).
 */
const sleepsOf = new WeakMap<AbortSignal, Set<() => void>>();

/** Waits `ms`, rejecting early when `signal` aborts. */
export function sleepWithSignal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    if (signal === undefined) {
      setTimeout(resolve, ms);
      return;
    }
    let sleeps = sleepsOf.get(signal);
    if (sleeps === undefined) {
      const waiting = new Set<() => void>();
      sleeps = waiting;
      sleepsOf.set(signal, waiting);
      signal.addEventListener("abort", () => {
        for (const wake of waiting) wake();
        waiting.clear();
      }, { once: true });
    }
    const own = sleeps;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      own.delete(onAbort);
      resolve();
    }, ms);
    own.add(onAbort);
  });
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function checkPositive(option: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) invalid(option, value, "must be a positive number of milliseconds");
}

function invalid(option: string, value: unknown, problem: string): never {
  const shown = option === "apiHost" ? String(value) : shownOptionValue(value);
  throw new PlatformError(ErrorCode.INVALID_OPTIONS, `Invalid option ${option} (${shown}): ${problem}.`, {
    details: { option, value: optionDetailValue(value) },
  });
}

/** The configuration of an observed sibling client: `observer`'s listeners over those of `config`. */
export function observing(config: ClientConfig, observer: RequestObserver): ClientConfig {
  return { ...config, transport: { ...config.transport, observer: { ...config.transport.observer, ...observer } } };
}
