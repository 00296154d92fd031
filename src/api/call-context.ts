/**
 * What the typed calls share: sending one request, path building and the tolerances of
 * the typed calls (404 → absent, DELETE 404 → done, 409 → already there).
 */
import { ErrorCode, PlatformError, isPlatformError } from "../errors/index.js";
import { bucketNameIssue } from "../rules/names.js";
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "../rules/url-segment.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import type { ClientConfig } from "./client-options.js";
import { sendRequest, type ApiResponse, type RequestSpec } from "./transport.js";
import type { BranchRef } from "./platform-api.js";

/** A configured client the call modules build on. */
export interface CallContext {
  config: ClientConfig;
  send<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>>;
}

/** Builds the call context for a validated configuration. */
export function createCallContext(config: ClientConfig): CallContext {
  return { config, send: (spec) => sendRequest(config.transport, spec) };
}

/**
 * One percent-encoded path segment. A value the URL would not carry unchanged
 * (not a string or number, empty, `.`/`..`, an unpaired surrogate) is refused before anything is
 * sent: `…/buckets/..` would otherwise address the branch itself.
 *
 * @throws PlatformError `PLATFORM_INVALID_OPTIONS` naming `what` and the problem.
 */
export function seg(value: string | number, what = "path segment"): string {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") throw invalidValue(what, value, `must be a string (got ${value === null ? "null" : typeof value})`);
  const issue = urlSegmentIssue(value);
  if (issue !== null) throw invalidValue(what, value, URL_SEGMENT_ISSUE_MESSAGES[issue]);
  return encodeURIComponent(value);
}

/** Checks a bucket name against the shared rule before it is sent (body or path). */
export function checkBucketName(name: string): string {
  const issue = typeof name === "string" ? bucketNameIssue(name) : "must be a string";
  if (issue !== null) throw invalidValue("bucket name", name, issue);
  return name;
}

function invalidValue(what: string, value: unknown, issue: string): PlatformError {
  const shown = typeof value === "string" ? JSON.stringify(escapeUnsafeText(value)) : String(value);
  return new PlatformError(ErrorCode.INVALID_OPTIONS, `${what} ${shown} cannot be sent: it ${issue}; nothing was sent.`, {
    details: { option: what, value: typeof value === "string" ? escapeUnsafeText(value) : String(value) },
  });
}

/** `/projects/{p}/branches/{b}`. */
export function branchPath(ref: BranchRef): string {
  return `/projects/${seg(ref.projectId, "projectId")}/branches/${seg(ref.branchId, "branchId")}`;
}

/** Whether `err` is an HTTP error response with one of `statuses`. */
export function hasStatus(err: unknown, ...statuses: number[]): boolean {
  if (!isPlatformError(err)) return false;
  const status = (err as { status?: unknown }).status ?? err.details["status"];
  return typeof status === "number" && statuses.includes(status);
}

/** Resolves to `null` when the call fails with 404 (a GET of something not enabled). */
export async function nullOn404<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (hasStatus(err, 404) && !isFeatureUnavailable(err)) return null;
    throw err;
  }
}

/** Resolves when the call succeeds or fails with 404 (a DELETE of something already gone). */
export async function doneOn404(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    if (hasStatus(err, 404) && !isFeatureUnavailable(err)) return;
    throw err;
  }
}

function isFeatureUnavailable(err: unknown): boolean {
  return isPlatformError(err, "PLATFORM_FEATURE_UNAVAILABLE");
}
