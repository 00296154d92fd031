/**
 * A request the state forbids, raised by the domain functions of `engine/` (which know nothing
 * about HTTP). The server answers it with the status of its kind and the general error body
 * (`code`, `message`, `request_id`); the message names the resource and the fix.
 */

/** What kind of rule failed; decides the HTTP status (400, 403, 404, 409, 410, 412, 422, 423). */
export type RuleErrorKind = "invalid" | "forbidden" | "not_found" | "conflict" | "gone" | "precondition_failed" | "unprocessable" | "locked";

/** The HTTP status of each kind. */
export const RULE_ERROR_STATUS: Readonly<Record<RuleErrorKind, 400 | 403 | 404 | 409 | 410 | 412 | 422 | 423>> = Object.freeze({
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  unprocessable: 422,
  locked: 423,
});

/** Default error `code` of each kind. */
const DEFAULT_CODE: Readonly<Record<RuleErrorKind, string>> = Object.freeze({
  invalid: "invalid_request",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
  gone: "gone",
  precondition_failed: "precondition_failed",
  unprocessable: "unprocessable",
  locked: "locked",
});

/** A domain rule that refused a request. */
export class RuleError extends Error {
  /** The error body's `code`. */
  readonly code: string;
  /** The request field at fault, reported as the single `issues` entry. */
  readonly field: string | undefined;
  /** That issue's message. @default the error's message */
  readonly issue: string;
  /** A machine-readable sub-reason reported as the body's `reason` (storage and AI-gateway 404s). */
  readonly reason: string | undefined;
  constructor(
    readonly kind: RuleErrorKind,
    message: string,
    options: { code?: string; field?: string; issue?: string; reason?: string } = {},
  ) {
    super(message);
    this.name = "RuleError";
    this.code = options.code ?? DEFAULT_CODE[kind];
    this.field = options.field;
    this.issue = options.issue ?? message;
    this.reason = options.reason;
  }
}
