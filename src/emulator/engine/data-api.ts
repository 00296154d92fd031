/** The Data API's settings (api.md §9): the platform's defaults and the effective settings a read returns. */
import type { DataApiRec } from "../store/records.js";

/**
 * Settings of a Data API nobody configured (our choice where the platform publishes none; they
 * follow PostgREST's defaults, with a row cap). Every field `api.md` lists is present, so a
 * client can read the settings and PATCH them back unchanged.
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
