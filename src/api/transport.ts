/**
 * One logical HTTP call to the management API: headers, body encoding, per-attempt timeout
 * combined with the caller's signal, retries (`retry-policy.ts`), error mapping and response
 * validation. The only module here that performs I/O (through its sender, `http-exchange.ts`).
 */
import type { z } from "zod";
import {
  ApiError,
  CancelledError,
  ErrorCode,
  NetworkError,
  OutcomeUnknownError,
  TimeoutError,
  type PlatformError,
} from "../errors/index.js";
import { errorFromResponse, parseErrorBody } from "./error-body.js";
import { AttemptTimeoutError, type HttpAnswer, type HttpExchange, type HttpSend, NotSentError } from "./http-exchange.js";
import type { MultipartBody } from "./multipart-body.js";
import { REFUSED, readResponse } from "./response-reader.js";
import { type RequestObserver, reportRequest, reportRetry } from "./request-observer.js";
import { decideRetry, isIdempotentMethod, parseRetryAfterMs, type AttemptOutcome, type RetryRules } from "./retry-policy.js";
import type { ApiRetryEvent } from "../model/events.js";

/** An HTTP method the client uses. */
export type HttpMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Events the client reports through `onEvent`. */
export type ApiEvent = ApiRetryEvent;

/** Everything a transport needs; built once by `createPlatformApi`. */
export interface TransportConfig {
  /** Sent as a bearer token; omitted for an API without keys (the claimable database API). */
  apiKey?: string;
  /** Base URL without a trailing `/`, e.g. `https://host/api/v2`. */
  baseUrl: string;
  userAgent: string;
  /** Sends one attempt: `nodeHttpSend`, or `fetchSend` over a caller's `fetch`. */
  send: HttpSend;
  /** Per-attempt limit of ordinary requests. */
  requestMs: number;
  /** Per-attempt limit of uploads. */
  uploadMs: number;
  signal?: AbortSignal;
  onEvent?: (event: ApiEvent) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Returns a number in [0, 1) for jitter. */
  random: () => number;
  newRequestId: () => string;
  now: () => number;
  /** @default decideRetry, the management API's rules */
  retryRules?: RetryRules;
  /** Where requests and retries are reported (`observedApi`); none by default. */
  observer?: RequestObserver;
}

/** One call. `path` is relative to the base URL with its segments already encoded. */
export interface RequestSpec<T> {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  /** An encoded multipart body, sent as is with its own `Content-Type`. */
  multipart?: MultipartBody;
  /** Validates the success body (`{}` for an empty one). */
  schema: z.ZodType<T>;
  /** Uses the upload time limit. */
  upload?: boolean;
  /** The feature the route belongs to, for `FeatureUnavailableError`. */
  feature?: string;
  /**
   * A mutation that names its own resource (a client-chosen id), so resending it after no answer
   * cannot apply it twice. @default true for GET, HEAD and OPTIONS only
   */
  resendable?: boolean;
}

/** A validated success response. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  requestId: string;
}

/** An attempt's outcome. `notSent`: its connection never opened, so it may be resent whatever its method. */
type Attempt = ({ kind: "response" } & HttpAnswer) | { kind: "no-response"; timedOut: boolean; notSent: boolean; cause: unknown };

/**
 * Sends the request, retrying as `retry-policy.ts` decides, and returns the validated body. The outcome is
 * reported to the configuration's observer (`observedApi`).
 */
export async function sendRequest<T>(config: TransportConfig, spec: RequestSpec<T>): Promise<ApiResponse<T>> {
  const requestId = config.newRequestId();
  const started = config.now();
  // Per-request objects are written out rather than spread and extended: V8 builds those slowly.
  const report = (status: number | undefined, answeredId: string): void => {
    const ms = Math.max(0, config.now() - started);
    reportRequest(config.observer, status === undefined ? { method: spec.method, path: spec.path, ms, requestId: answeredId } : { method: spec.method, path: spec.path, status, ms, requestId: answeredId });
  };
  try {
    const response = await sendWithRetries(config, spec, requestId);
    report(response.status, response.requestId);
    return response;
  } catch (err) {
    report(statusOf(err), requestIdOf(err) ?? requestId);
    throw err;
  }
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const status = (err as { status?: unknown; details?: { status?: unknown } }).status ?? (err as { details?: { status?: unknown } }).details?.status;
  return typeof status === "number" ? status : undefined;
}

function requestIdOf(err: unknown): string | undefined {
  const id = typeof err === "object" && err !== null ? (err as { requestId?: unknown }).requestId : undefined;
  return typeof id === "string" ? id : undefined;
}

async function sendWithRetries<T>(config: TransportConfig, spec: RequestSpec<T>, requestId: string): Promise<ApiResponse<T>> {
  const url = buildUrl(config.baseUrl, spec.path, spec.query);
  const where = { method: spec.method, path: spec.path, requestId };
  let retries = 0;
  for (;;) {
    throwIfCancelled(config.signal, spec);
    const attempt = await attemptOnce(config, spec, url, requestId);
    const attempts = retries + 1;
    if (attempt.kind === "response" && attempt.status >= 200 && attempt.status < 300) {
      return {
        status: attempt.status,
        data: parseSuccess(spec, attempt, { method: where.method, path: where.path, requestId: where.requestId, attempts }),
        requestId: attempt.header("x-request-id") ?? requestId,
      };
    }
    const outcome: AttemptOutcome =
      attempt.kind === "response"
        ? { kind: "status", status: attempt.status, ...retryAfter(attempt.header("retry-after"), config.now()) }
        : { kind: "no-response" };
    const decide = config.retryRules ?? decideRetry;
    const decision = decide({ method: spec.method, resendable: mayResend(spec, attempt), outcome, retriesSoFar: retries, jitter: config.random() });
    if (decision.retry) {
      emit(config, {
        type: "retry",
        method: spec.method,
        path: spec.path,
        attempt: attempts,
        delayMs: decision.delayMs,
        ...(attempt.kind === "response" ? { status: attempt.status } : {}),
        requestId,
      });
      try {
        await config.sleep(decision.delayMs, config.signal);
      } catch (cause) {
        throw cancelled(spec, cause);
      }
      retries += 1;
      continue;
    }
    throw finalError(config, spec, attempt, { ...where, attempts });
  }
}

async function attemptOnce<T>(config: TransportConfig, spec: RequestSpec<T>, url: string, requestId: string): Promise<Attempt> {
  const headers: Record<string, string> =
    config.apiKey === undefined
      ? { "user-agent": config.userAgent, "x-request-id": requestId, accept: "application/json" }
      : { authorization: `Bearer ${config.apiKey}`, "user-agent": config.userAgent, "x-request-id": requestId, accept: "application/json" };
  let body: string | Uint8Array | undefined;
  if (spec.multipart !== undefined) {
    headers["content-type"] = spec.multipart.contentType;
    body = spec.multipart.bytes;
  } else if (spec.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(spec.json);
  }
  try {
    const exchange: HttpExchange = { method: spec.method, url, headers, timeoutMs: spec.upload ? config.uploadMs : config.requestMs };
    if (body !== undefined) exchange.body = body;
    if (config.signal !== undefined) exchange.signal = config.signal;
    const answer = await config.send(exchange);
    return { kind: "response", ...answer };
  } catch (cause) {
    if (config.signal?.aborted) {
      // A mutation already on the wire may have landed: the caller must not assume it did not.
      if (!isResendable(spec) && !(cause instanceof NotSentError)) throw new OutcomeUnknownError({ method: spec.method, path: spec.path, requestId }, cause);
      throw cancelled(spec, cause);
    }
    return { kind: "no-response", timedOut: cause instanceof AttemptTimeoutError, notSent: cause instanceof NotSentError, cause };
  }
}

function parseSuccess<T>(
  spec: RequestSpec<T>,
  attempt: Extract<Attempt, { kind: "response" }>,
  where: { method: string; path: string; requestId: string; attempts: number },
): T {
  let raw: unknown = {};
  if (attempt.status !== 204 && attempt.text.trim() !== "") {
    const contentType = attempt.header("content-type") ?? "";
    if (!contentType.includes("json")) throw shapeError(where, attempt.status, `the body is not JSON (content type "${contentType}")`);
    try {
      raw = JSON.parse(attempt.text);
    } catch {
      throw shapeError(where, attempt.status, "the body is not valid JSON");
    }
  }
  const read = readResponse(spec.schema, raw);
  if (read !== REFUSED) return read;
  // The reader refused the body: zod's parse names the field at fault.
  const result = spec.schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? "(body)" : issue.path.map(String).join(".");
  throw shapeError(where, attempt.status, `field "${field}": ${issue?.message ?? "invalid"}`);
}

function shapeError(
  where: { method: string; path: string; requestId: string; attempts: number },
  status: number,
  problem: string,
): ApiError {
  return new ApiError(
    { ...where, status, apiMessage: `unexpected response shape: ${problem}. Check that apiHost points at the management API v2` },
    { code: ErrorCode.API_ERROR, reason: "unexpected response shape" },
  );
}

function finalError<T>(
  config: TransportConfig,
  spec: RequestSpec<T>,
  attempt: Attempt,
  where: { method: string; path: string; requestId: string; attempts: number },
): PlatformError {
  const unsafe = !mayResend(spec, attempt);
  if (attempt.kind === "no-response") {
    if (unsafe) return new OutcomeUnknownError({ method: where.method, path: where.path, requestId: where.requestId }, attempt.cause);
    if (attempt.timedOut) {
      const limitMs = spec.upload ? config.uploadMs : config.requestMs;
      return new TimeoutError(
        { waitingFor: `a response to ${where.method} ${where.path}`, limitMs },
        { details: { requestId: where.requestId, attempts: where.attempts }, cause: attempt.cause },
      );
    }
    return new NetworkError({ ...where, host: new URL(config.baseUrl).origin }, attempt.cause);
  }
  if (attempt.status >= 300 && attempt.status < 400) {
    return new ApiError({ ...where, status: attempt.status, apiMessage: redirectRefusal(attempt.header("location"), config.baseUrl) });
  }
  if (unsafe && [500, 502, 504].includes(attempt.status)) {
    return new OutcomeUnknownError({ method: where.method, path: where.path, requestId: where.requestId, status: attempt.status });
  }
  return errorFromResponse({
    method: where.method,
    path: where.path,
    status: attempt.status,
    body: parseErrorBody(attempt.text, attempt.header("content-type")),
    headerRequestId: attempt.header("x-request-id"),
    sentRequestId: where.requestId,
    attempts: where.attempts,
    ...(spec.feature === undefined ? {} : { feature: spec.feature }),
  });
}

/** A redirect is not followed: the request would carry the API key (and a body) to another address. */
function redirectRefusal(location: string | null, baseUrl: string): string {
  let target = "";
  try {
    if (location !== null) {
      const to = new URL(location, baseUrl);
      target = ` to ${to.origin}${to.pathname}`;
    }
  } catch {
    // An unreadable Location: the message goes without it.
  }
  return `the API answered with a redirect${target}, which svc-config does not follow; set apiHost to the address the API answers at`;
}

/** Whether `spec` may be sent again after `attempt`: always when the attempt never left the process. */
function mayResend<T>(spec: RequestSpec<T>, attempt: Attempt): boolean {
  return isResendable(spec) || (attempt.kind === "no-response" && attempt.notSent);
}

function isResendable<T>(spec: RequestSpec<T>): boolean {
  return spec.resendable ?? isIdempotentMethod(spec.method);
}

function retryAfter(header: string | null, now: number): { retryAfterMs?: number } {
  const ms = parseRetryAfterMs(header, now);
  return ms === undefined ? {} : { retryAfterMs: ms };
}

function buildUrl(baseUrl: string, path: string, query: RequestSpec<unknown>["query"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search === "" ? "" : `?${search}`}`;
}

function throwIfCancelled<T>(signal: AbortSignal | undefined, spec: RequestSpec<T>): void {
  if (signal?.aborted) throw cancelled(spec, signal.reason);
}

function cancelled<T>(spec: RequestSpec<T>, cause: unknown): CancelledError {
  const error = new CancelledError(`${spec.method} ${spec.path}`);
  return Object.assign(error, { cause });
}

function emit(config: TransportConfig, event: ApiEvent): void {
  try {
    config.onEvent?.(event);
  } catch {
    // A listener's failure must not break the call.
  }
  reportRetry(config.observer, event);
}
