/**
 * Turns an error response into the library's typed error: an `ApiError` carrying the
 * body's code and request id, or `FeatureUnavailableError` for a feature not offered here. Pure: takes the status, headers and body text already read.
 */
import { ApiError, FeatureUnavailableError, type PlatformError } from "../errors/index.js";

/** The parts of an error body the client reads. */
export interface ParsedErrorBody {
  code?: string;
  message?: string;
  requestId?: string;
  reason?: string;
  /** What to do, when the API says (the claimable database API does). */
  hint?: string;
}

/** Longest non-JSON body text kept as the message. */
const MAX_TEXT_MESSAGE = 500;

/** 404 `reason`s of storage and the AI gateway that mean "not offered here". */
const UNAVAILABLE_REASONS = new Set(["org_not_entitled", "region_unavailable", "ai_gateway_unavailable"]);
/** Error `code`s that mean "not offered here". */
const UNAVAILABLE_CODES = new Set(["feature_unavailable", "capability_requires_claim"]);

/**
 * Reads `{code, message, request_id, reason}` at the top level or under `error`; a non-JSON
 * body becomes the message (at most 500 characters).
 */
export function parseErrorBody(text: string, contentType: string | null): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === "") return {};
  const looksJson = (contentType ?? "").includes("json") || trimmed.startsWith("{");
  if (looksJson) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isRecord(parsed)) {
        const inner = isRecord(parsed["error"]) ? parsed["error"] : parsed;
        return {
          code: stringField(inner, "code") ?? stringField(parsed, "code"),
          message: stringField(inner, "message") ?? stringField(parsed, "message"),
          requestId: stringField(inner, "request_id") ?? stringField(parsed, "request_id"),
          reason: stringField(inner, "reason") ?? stringField(parsed, "reason"),
          hint: stringField(inner, "hint") ?? stringField(parsed, "hint"),
        };
      }
    } catch {
      // Not JSON after all: fall through and keep the text.
    }
  }
  return { message: trimmed.slice(0, MAX_TEXT_MESSAGE) };
}

/** What the client knows about the failed exchange. */
export interface ErrorResponseInfo {
  method: string;
  path: string;
  status: number;
  body: ParsedErrorBody;
  /** The `X-Request-ID` response header, if any. */
  headerRequestId: string | null;
  /** The id the client sent. */
  sentRequestId: string;
  attempts: number;
  /** The feature the route belongs to (functions, storage, …), for unavailability detection. */
  feature?: string;
}

/** The typed error for an error response after retries. */
export function errorFromResponse(info: ErrorResponseInfo): PlatformError {
  const requestId = info.body.requestId ?? info.headerRequestId ?? info.sentRequestId;
  const unavailable = featureUnavailableReason(info);
  if (unavailable !== undefined) {
    return new FeatureUnavailableError({
      feature: info.feature ?? `${info.method} ${info.path}`,
      reason: unavailable,
      status: info.status,
      requestId,
    });
  }
  return new ApiError({
    method: info.method,
    path: info.path,
    status: info.status,
    ...(info.body.code === undefined ? {} : { apiCode: info.body.code }),
    ...(info.body.message === undefined ? {} : { apiMessage: info.body.message }),
    ...(info.body.hint === undefined ? {} : { apiHint: info.body.hint }),
    requestId,
    attempts: info.attempts,
  });
}

function featureUnavailableReason(info: ErrorResponseInfo): string | undefined {
  const { code, reason, message } = info.body;
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return message ?? code;
  if (info.status === 404 && reason !== undefined && UNAVAILABLE_REASONS.has(reason)) return message ?? reason;
  const saysUnavailable = (message ?? "").toLowerCase().includes("not available");
  if (info.feature !== undefined && (info.status === 404 || info.status === 501) && saysUnavailable) return message;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}
