/**
 * The Data API resource kind (docs/policy.md#dataapi): the descriptor of its `settings`, the one
 * place that names each setting in policy, model and wire vocabulary with its rule. The policy
 * schema, the public type's compile-time check, the wire schema, the inspector, the diff, the
 * handler and the pull all read it. Policy and model keys are the same (camelCase).
 */
import type { FieldDescriptor, ModelValues, ValueRule } from "../../model/kinds/field.js";

/** A setting: same policy and model key, compared exactly, an override to change, pulled. */
function setting<const K extends string, const W extends string, const R extends ValueRule>(policyKey: K, wireKey: W, rule: R): FieldDescriptor & { policyKey: K; modelKey: K; wireKey: W; rule: R } {
  return { policyKey, modelKey: policyKey, wireKey, rule, compare: "exact", changeClass: "override", pulled: true };
}

/** The Data API settings, in the order plans, pulls and requests list them (docs/policy.md#data-api-settings). */
export const DATA_API_SETTINGS = [
  setting("dbAggregatesEnabled", "db_aggregates_enabled", { type: "boolean" }),
  setting("dbAnonRole", "db_anon_role", { type: "string", nonEmpty: true }),
  setting("dbExtraSearchPath", "db_extra_search_path", { type: "string" }),
  setting("dbMaxRows", "db_max_rows", { type: "integer", min: 1 }),
  setting("dbSchemas", "db_schemas", { type: "name-list", what: "schema" }),
  setting("jwtRoleClaimKey", "jwt_role_claim_key", { type: "string", nonEmpty: true }),
  setting("jwtCacheMaxLifetime", "jwt_cache_max_lifetime", { type: "integer", min: 0 }),
  setting("openapiMode", "openapi_mode", { type: "enum", values: ["ignore-privileges", "disabled"] }),
  setting("serverCorsAllowedOrigins", "server_cors_allowed_origins", { type: "string" }),
  setting("serverTimingEnabled", "server_timing_enabled", { type: "boolean" }),
] as const;

/** The Data API settings in model (= policy) vocabulary, every key present. */
export type DataApiSettings = ModelValues<typeof DATA_API_SETTINGS>;

/** The Data API's operations on the Data API of `op.database`: `planned`, the declared settings (an update's: the changed ones). */
export interface DataApiOperations {
  "data-api-create": { op: { database: string }; planned: Partial<DataApiSettings> };
  "data-api-update": { op: { database: string }; planned: Partial<DataApiSettings> };
  "data-api-delete": { op: { database: string }; planned: Record<never, never> };
}

/** The Data API of one database as read: settings in model vocabulary (values that break their rule dropped), null when the platform reports none. */
export interface LiveDataApi {
  enabled: boolean;
  database: string;
  settings: Partial<DataApiSettings> | null;
}

/** The Data API kind's field of the live state (`LiveState`). */
export interface DataApiLiveFields {
  dataApi?: LiveDataApi;
}

/** The Data API as the policy wants it. */
export type ResolvedDataApi =
  | { state: "unmanaged" }
  | { state: "disabled" }
  | {
      state: "enabled";
      database: string;
      authProvider: "builtin" | "external";
      jwksUrl?: string;
      providerName?: string;
      jwtAudience?: string;
      /** Declared keys only, camelCase. */
      settings: Partial<DataApiSettings>;
    };
