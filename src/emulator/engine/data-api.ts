/** The Data API: enable, update settings, disable; the defaults and the effective settings a read returns. */
import type { BranchRec, DataApiRec } from "../store/records.js";
import { RuleError } from "./rule-error.js";

/**
 * Settings of a Data API nobody configured (our choice where the platform publishes none; they
 * follow PostgREST's defaults, with a row cap). Every settings field of the platform's Data API
 * record is present, so a client can read the settings and PATCH them back unchanged.
 */
export const DATA_API_DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  db_aggregates_enabled: false,
  db_anon_role: "anonymous",
  db_extra_search_path: "public, extensions",
  db_max_rows: 1000,
  db_schemas: ["public"],
  jwt_role_claim_key: ".role",
  jwt_cache_max_lifetime: 0,
  openapi_mode: "ignore-privileges",
  server_cors_allowed_origins: "",
  server_timing_enabled: false,
});

/** The settings in effect: the defaults overlaid with what was set at creation and by PATCHes. */
export function effectiveDataApiSettings(rec: DataApiRec): Record<string, unknown> {
  return structuredClone({ ...DATA_API_DEFAULT_SETTINGS, ...(rec.settings ?? {}) });
}

/** The Data API of a database on the branch, or `not_found` when it is not enabled. */
export function findDataApi(branch: BranchRec, database: string): DataApiRec {
  const rec = branch.dataApi.get(database);
  if (rec === undefined) throw new RuleError("not_found", `the data API is not enabled for database "${database}" on branch ${branch.id}`);
  return rec;
}

/** Enables the Data API on a database (once: `already_enabled` after); `neon_auth` needs branch auth, `external` a JWKS URL. */
export function enableDataApi(branch: BranchRec, database: string, input: { authProvider?: string; jwksUrl?: string; settings?: Record<string, unknown> }, now: number): DataApiRec {
  if (input.authProvider === "neon_auth" && branch.auth === undefined) throw new RuleError("unprocessable", `auth_provider neon_auth needs branch auth on ${branch.id}; enable auth first or use external`);
  if (input.authProvider === "external" && input.jwksUrl === undefined) throw new RuleError("unprocessable", "auth_provider external needs jwks_url", { field: "jwks_url" });
  if (branch.dataApi.has(database)) throw new RuleError("conflict", `the data API is already enabled for database "${database}" on branch ${branch.id}`, { code: "already_enabled" });
  const rec: DataApiRec = {
    database,
    settings: input.settings !== undefined ? { ...input.settings } : null,
    ...(input.authProvider !== undefined ? { authProvider: input.authProvider } : {}),
    createdAt: now,
  };
  branch.dataApi.set(database, rec);
  return rec;
}

/** Sets the given settings; the others keep their values. */
export function updateDataApiSettings(branch: BranchRec, database: string, settings: Record<string, unknown> | undefined): void {
  const rec = findDataApi(branch, database);
  if (settings !== undefined) rec.settings = { ...(rec.settings ?? {}), ...settings };
}

/** Disables the Data API on a database. */
export function disableDataApi(branch: BranchRec, database: string): void {
  branch.dataApi.delete(findDataApi(branch, database).database);
}
