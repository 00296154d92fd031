/**
 * The claimable database API client: idempotent creates with a client-chosen UUID v7, sent
 * through the shared transport of `api/` (per-attempt timeouts, request ids, cancellation) with
 * this API's retry rules (`claim-retry-rules.ts`), and response validation. Never prints, reads
 * no environment variables, and never puts a connection string into an error.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { sleepWithSignal } from "../api/client-options.js";
import { senderFor } from "../api/node-http-send.js";
import { sendRequest, type HttpMethod, type TransportConfig } from "../api/transport.js";
import { ApiError, ErrorCode, PlatformError, type ApiErrorInfo } from "../errors/index.js";
import { LIBRARY_VERSION } from "../version.js";
import { decideClaimRetry } from "./claim-retry-rules.js";

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
  /** Sends every request through this `fetch`. @default Node's `http`/`https` with a keep-alive agent */
  fetch?: typeof fetch;
  /** Time limit of one attempt, in milliseconds; a request makes up to 4. @default 30000 */
  timeoutMs?: number;
}

/** Options of {@link createClaimableDatabase}. */
export interface CreateClaimableDatabaseOptions extends ClaimApiOptions {
  /** Referrer naming the app or tool; required, non-empty. */
  referrer: string;
  logicalReplication?: boolean;
  /** Client-chosen id (canonical UUID). @default a new UUID v7 */
  id?: string;
}

/** A UUID in its canonical text form, any version. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per-attempt time limit of the claimable database API. */
const ATTEMPT_TIMEOUT_MS = 30_000;
/** The longest per-attempt limit `setTimeout` can wait. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** A UUID v7 from the local clock (the server's values win for everything else). */
function newDatabaseId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The API's origin from `apiHost`, which may end in `/` or `/api/v1`. */
function claimOrigin(apiHost: string = DEFAULT_CLAIM_API_HOST): string {
  return apiHost.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
}

function transportFor(options: ClaimApiOptions): TransportConfig {
  const limitMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  if (typeof limitMs !== "number" || !Number.isInteger(limitMs) || limitMs < 1 || limitMs > MAX_TIMEOUT_MS) {
    throw new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, `timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}; omit it for 30000`);
  }
  return {
    // Paths carry `/api/v1`, so messages name the route as the server sees it.
    baseUrl: claimOrigin(options.apiHost),
    userAgent: `svc-config/${LIBRARY_VERSION}`,
    send: senderFor(options.fetch),
    requestMs: limitMs,
    uploadMs: limitMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    sleep: sleepWithSignal,
    random: Math.random,
    newRequestId: randomUUID,
    now: Date.now,
    retryRules: decideClaimRetry,
  };
}

/**
 * One call through the transport. An error answer becomes `PLATFORM_INSTANT_API_ERROR` with the
 * API's code, message, hint and request id, and an answer that is not JSON becomes
 * `PLATFORM_INSTANT_BAD_RESPONSE`; no answer, a timeout and cancellation keep the transport's
 * typed errors (`PLATFORM_NETWORK_ERROR`, `PLATFORM_TIMEOUT`, `PLATFORM_OUTCOME_UNKNOWN`, `PLATFORM_CANCELLED`).
 */
async function callClaimApi(options: ClaimApiOptions, call: { method: HttpMethod; path: string; json?: unknown; resendable: boolean; details?: Record<string, unknown> }): Promise<unknown> {
  try {
    const response = await sendRequest(transportFor(options), {
      method: call.method,
      path: call.path,
      ...(call.json === undefined ? {} : { json: call.json }),
      schema: z.unknown(),
      resendable: call.resendable,
    });
    return response.data;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const info = err.details as unknown as ApiErrorInfo & { reason?: string };
    if (info.reason === "unexpected response shape") {
      throw new PlatformError(ErrorCode.INSTANT_BAD_RESPONSE, "the claimable database API answered with something other than JSON; check the API host", {
        details: { ...call.details, status: err.status, requestId: err.requestId },
      });
    }
    const message = info.apiMessage ?? `HTTP ${err.status}`;
    throw new PlatformError(ErrorCode.INSTANT_API_ERROR, `${call.method} ${call.path} failed with HTTP ${err.status}: ${message} (request id ${err.requestId})`, {
      details: { ...call.details, status: err.status, code: err.apiCode ?? null, message, hint: info.apiHint ?? null, requestId: err.requestId },
    });
  }
}

/** Checks a created record's shape; `expectedId` when the id was chosen by the client. */
function validateCreatedRecord(body: unknown, expectedId: string | null): ClaimableDatabaseRecord {
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
  if (options.id !== undefined && (typeof options.id !== "string" || !CANONICAL_UUID.test(options.id))) {
    throw new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, "id must be a canonical UUID (8-4-4-4-12 hexadecimal digits); omit it to get a new UUID v7");
  }
  const id = (options.id ?? newDatabaseId()).toLowerCase();
  const json = { ref: referrer, enable_logical_replication: options.logicalReplication ?? false };
  try {
    const body = await callClaimApi(options, { method: "POST", path: `/api/v1/database/${id}`, json, resendable: true, details: { databaseId: id } });
    return validateCreatedRecord(body, id);
  } catch (err) {
    const status = err instanceof PlatformError && err.code === ErrorCode.INSTANT_API_ERROR ? (err.details as { status?: unknown } | undefined)?.status : undefined;
    if (status !== 404 && status !== 405) throw err;
  }
  const body = await callClaimApi(options, { method: "POST", path: "/api/v1/database", json, resendable: false });
  return validateCreatedRecord(body, null);
}

/** Reads a record; null when the API answers `Database not found`. */
export async function getClaimableDatabase(id: string, options: ClaimApiOptions = {}): Promise<ClaimableDatabaseRecord | null> {
  let body: Record<string, unknown>;
  try {
    const data = await callClaimApi(options, { method: "GET", path: `/api/v1/database/${encodeURIComponent(id)}`, resendable: true, details: { databaseId: id } });
    body = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  } catch (err) {
    const details = err instanceof PlatformError && err.code === ErrorCode.INSTANT_API_ERROR ? (err.details as { status?: unknown; message?: unknown } | undefined) : undefined;
    if (details?.status === 400 && details.message === "Database not found") return null;
    throw err;
  }
  if (typeof body["id"] !== "string" || typeof body["status"] !== "string" || typeof body["claim_url"] !== "string") {
    throw new PlatformError(ErrorCode.INSTANT_BAD_RESPONSE, "the claimable database API answered with a malformed record; check the API host", { details: { databaseId: id } });
  }
  return body as ClaimableDatabaseRecord;
}
