/**
 * HTTP error answers of the emulator: a Hono `HTTPException` carrying the
 * error body; the server's error handler adds `request_id` and writes it as JSON.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorIssue } from "../../api/wire/index.js";

/** The body fields of an error answer (without `request_id`). */
export interface ErrorAnswer {
  code: string;
  message: string;
  issues?: ErrorIssue[];
  reason?: string;
}

/** An error answer thrown by a route or middleware. */
export class EmulatorHttpError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly answer: ErrorAnswer,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message: answer.message });
  }
}

/** 400 `invalid_request` (optionally with validation issues). */
export function badRequest(message: string, issues?: ErrorIssue[], code = "invalid_request"): EmulatorHttpError {
  return new EmulatorHttpError(400, { code, message, ...(issues !== undefined ? { issues } : {}) });
}

/** 401 `unauthorized` (same message for unknown and revoked keys). */
export function unauthorized(): EmulatorHttpError {
  return new EmulatorHttpError(401, { code: "unauthorized", message: "authentication required: send Authorization: Bearer <API key> with a valid, unrevoked key" });
}

/** 403 `forbidden` or `plan_limit_exceeded`. */
export function forbidden(message: string, code = "forbidden"): EmulatorHttpError {
  return new EmulatorHttpError(403, { code, message });
}

/** 404 `not_found` (or `feature_unavailable`, or a storage/AI-gateway `reason`). */
export function notFound(message: string, code = "not_found", reason?: string): EmulatorHttpError {
  return new EmulatorHttpError(404, { code, message, ...(reason !== undefined ? { reason } : {}) });
}

/** 409 with one of the conflict codes. */
export function conflict(message: string, code = "conflict"): EmulatorHttpError {
  return new EmulatorHttpError(409, { code, message });
}

/** 422 `unprocessable` (or a more specific code). */
export function unprocessable(message: string, code = "unprocessable", issues?: ErrorIssue[]): EmulatorHttpError {
  return new EmulatorHttpError(422, { code, message, ...(issues !== undefined ? { issues } : {}) });
}

/** 413 `payload_too_large`. */
export function payloadTooLarge(message: string): EmulatorHttpError {
  return new EmulatorHttpError(413, { code: "payload_too_large", message });
}

/** The status -> code table of injected faults and generic failures. */
export const CODE_BY_STATUS: Readonly<Record<number, string>> = Object.freeze({
  423: "locked",
  429: "rate_limited",
  500: "internal_error",
  501: "not_implemented",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
});
