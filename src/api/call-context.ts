/**
 * What the typed calls share: sending one request, path building and the tolerances of
 * engine.md §12 (404 → absent, DELETE 404 → done, 409 → already there).
 */
import { isPlatformError } from "../errors/index.js";
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

/** One percent-encoded path segment (api.md §1.6). */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** `/projects/{p}/branches/{b}`. */
export function branchPath(ref: BranchRef): string {
  return `/projects/${seg(ref.projectId)}/branches/${seg(ref.branchId)}`;
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
