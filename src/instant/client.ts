/**
 * The claimable database API client: idempotent creates with a client-chosen
 * UUID v7, bounded retries with full-jitter backoff, response validation. Never prints, reads no
 * environment variables, and never puts a connection string into an error.
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { networkCauseOf } from "../errors/network-cause.js";

/** Production origin of the claimable database API. */
export const DEFAULT_CLAIM_API_HOST = "https://neon.new";

/** A claimable database record as the API returns it (the `emulator` object is optional). */
export interface ClaimableDatabaseRecord {
  id: string;
  status: "UNCLAIMED" | "CLAIMING" | "CLAIMED";
  svc_project_id?: string;
  connection_string: string | null;
  claim_url: string;
  expires_at: string | null;
  created_at?: string;
  updated_at?: string;
  emulator?: { direct_connection_string?: string | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** Transport options shared by the client calls. */
export interface ClaimApiOptions {
  /** API origin; a trailing `/api/v1` is accepted. @default "https://neon.new" */
  apiHost?: string;
  signal?: AbortSignal;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Options of {@link createClaimableDatabase}. */
export interface CreateClaimableDatabaseOptions extends ClaimApiOptions {
  /** Referrer naming the app or tool; required, non-empty. */
  referrer: string;
  logicalReplication?: boolean;
  /** Client-chosen id (canonical UUID). @default a new UUID v7 */
  id?: string;
}

const ATTEMPTS = 4;
const ATTEMPT_TIMEOUT_MS = 30_000;
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

/** A UUID v7 from the local clock (the server's values win for everything else). */
export function newDatabaseId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The API base (`<origin>/api/v1`) from an origin that may already end in `/api/v1`. */
export function apiBase(apiHost: string = DEFAULT_CLAIM_API_HOST): string {
  return `${apiHost.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}/api/v1`;
}

interface Attempt {
  readonly response: Response | null;
  readonly body: unknown;
  readonly error: unknown;
}

async function attempt(url: string, init: RequestInit, options: ClaimApiOptions): Promise<Attempt> {
  const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(url, { ...init, signal });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { response, body, error: null };
  } catch (error) {
    if (options.signal?.aborted) throw new PlatformError(ErrorCode.CANCELLED, "the claimable database request was cancelled", { cause: error });
    return { response: null, body: null, error };
  }
}

function retryDelay(n: number, response: Response | null): number {
  const retryAfter = Number(response?.headers.get("retry-after") ?? Number.NaN);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, 10) * 1000;
  return Math.random() * 500 * 2 ** n;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new PlatformError(ErrorCode.CANCELLED, "the claimable database request was cancelled"));
    }, { once: true });
  });
}

function apiError(method: string, url: string, result: Attempt, details: Record<string, unknown> = {}): PlatformError {
  const body = (typeof result.body === "object" && result.body !== null ? result.body : {}) as Record<string, unknown>;
  const status = result.response?.status ?? 0;
  const message = typeof body["message"] === "string" ? body["message"] : `HTTP ${status}`;
  const requestId = typeof body["request_id"] === "string" ? body["request_id"] : (result.response?.headers.get("x-request-id") ?? null);
  return new PlatformError(ErrorCode.INSTANT_API_ERROR, `${method} ${new URL(url).pathname} failed with HTTP ${status}: ${message}${requestId ? ` (request id ${requestId})` : ""}`, {
    details: { ...details, status, code: body["code"] ?? null, message, hint: body["hint"] ?? null, requestId },
  });
}

/**
 * Sends one request with the retry policy: up to 4 attempts of 30 s; retried on network errors,
 * timeouts and 429/500/502/503/504 (`retryAll`), or only on answers that promise nothing was
 * applied (429, 503) when a retry could duplicate a create.
 */
async function send(method: string, url: string, init: RequestInit, options: ClaimApiOptions, retryAll: boolean): Promise<Attempt> {
  let last: Attempt = { response: null, body: null, error: null };
  for (let n = 0; n < ATTEMPTS; n++) {
    if (n > 0) await sleep(retryDelay(n - 1, last.response), options.signal);
    last = await attempt(url, { method, ...init }, options);
    const status = last.response?.status;
    const retryable = status === undefined ? retryAll : retryAll ? RETRY_STATUSES.has(status) : status === 429 || status === 503;
    if (!retryable) return last;
  }
  return last;
}

function networkError(method: string, url: string, result: Attempt): PlatformError {
  const why = result.error === null ? "no response" : networkCauseOf(result.error).text;
  const { origin, pathname } = new URL(url);
  return new PlatformError(
    ErrorCode.NETWORK_ERROR,
    `${method} ${pathname} on ${origin} got no response after ${ATTEMPTS} attempts (${why}). Check the claim API host and your network.`,
    { details: { host: origin }, cause: result.error },
  );
}

/** Checks a created record's shape; `expectedId` when the id was chosen by the client. */
export function validateCreatedRecord(body: unknown, expectedId: string | null): ClaimableDatabaseRecord {
  const record = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof record["id"] !== "string" || (expectedId !== null && record["id"].toLowerCase() !== expectedId.toLowerCase())) problems.push("id");
  if (record["status"] !== "UNCLAIMED") problems.push("status");
  for (const field of ["connection_string", "claim_url", "expires_at"]) if (typeof record[field] !== "string") problems.push(field);
  if (problems.length > 0) {
    throw new PlatformError(ErrorCode.INSTANT_BAD_RESPONSE, `the claimable database API answered with a malformed record (${problems.join(", ")}); check the API host`, {
      details: { fields: problems, databaseId: typeof record["id"] === "string" ? record["id"] : null },
    });
  }
  return record as ClaimableDatabaseRecord;
}

/**
 * Creates a claimable database and returns the raw record. Uses `POST /api/v1/database/<id>` so a
 * retry lands on the same database; if the server does not know that route (404/405), falls
 * back once to `POST /api/v1/database`, which is not retried after an unknown outcome.
 */
export async function createClaimableDatabase(options: CreateClaimableDatabaseOptions): Promise<ClaimableDatabaseRecord> {
  const referrer = typeof options.referrer === "string" ? options.referrer.trim() : "";
  if (referrer === "") throw new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, "referrer is required: a non-empty string naming the app or tool that creates the database");
  const id = (options.id ?? newDatabaseId()).toLowerCase();
  const base = apiBase(options.apiHost);
  const init: RequestInit = {
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ ref: referrer, enable_logical_replication: options.logicalReplication ?? false }),
  };
  const url = `${base}/database/${id}`;
  const result = await send("POST", url, init, options, true);
  if (result.response === null) throw networkError("POST", url, result);
  const status = result.response.status;
  if (status === 404 || status === 405) {
    const fallbackUrl = `${base}/database`;
    const fallback = await send("POST", fallbackUrl, init, options, false);
    if (fallback.response === null) throw networkError("POST", fallbackUrl, fallback);
    if (!fallback.response.ok) throw apiError("POST", fallbackUrl, fallback);
    return validateCreatedRecord(fallback.body, null);
  }
  if (!result.response.ok) throw apiError("POST", url, result, { databaseId: id });
  return validateCreatedRecord(result.body, id);
}

/** Reads a record; null when the API answers `Database not found`. */
export async function getClaimableDatabase(id: string, options: ClaimApiOptions = {}): Promise<ClaimableDatabaseRecord | null> {
  const url = `${apiBase(options.apiHost)}/database/${encodeURIComponent(id)}`;
  const result = await send("GET", url, { headers: { accept: "application/json" } }, options, true);
  if (result.response === null) throw networkError("GET", url, result);
  const body = (typeof result.body === "object" && result.body !== null ? result.body : {}) as Record<string, unknown>;
  if (result.response.status === 400 && body["message"] === "Database not found") return null;
  if (!result.response.ok) throw apiError("GET", url, result, { databaseId: id });
  if (typeof body["id"] !== "string" || typeof body["status"] !== "string" || typeof body["claim_url"] !== "string") {
    throw new PlatformError(ErrorCode.INSTANT_BAD_RESPONSE, "the claimable database API answered with a malformed record; check the API host", { details: { databaseId: id } });
  }
  return body as ClaimableDatabaseRecord;
}
