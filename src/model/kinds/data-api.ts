/** The Data API resource kind: its settings in model (policy) and wire names. */
import type { DataApiSettings } from "../desired-state.js";

/** Policy (camelCase) to wire (snake_case) names of the Data API settings (policy.md §5.2). */
export const DATA_API_WIRE_KEYS: Readonly<Record<keyof DataApiSettings, string>> = {
  dbAggregatesEnabled: "db_aggregates_enabled",
  dbAnonRole: "db_anon_role",
  dbExtraSearchPath: "db_extra_search_path",
  dbMaxRows: "db_max_rows",
  dbSchemas: "db_schemas",
  jwtRoleClaimKey: "jwt_role_claim_key",
  jwtCacheMaxLifetime: "jwt_cache_max_lifetime",
  openapiMode: "openapi_mode",
  serverCorsAllowedOrigins: "server_cors_allowed_origins",
  serverTimingEnabled: "server_timing_enabled",
};

/** The declared settings in wire names (undefined entries dropped). */
export function toWireSettings(settings: Partial<DataApiSettings>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    const wire = DATA_API_WIRE_KEYS[key as keyof DataApiSettings];
    if (wire !== undefined && value !== undefined) out[wire] = value;
  }
  return out;
}
