/** Wire shapes of the data API (api.md §9). */
import { z } from "zod";

/** Data API `settings` on the request side. */
export const DataApiSettingsInputSchema = z.object({
  db_aggregates_enabled: z.boolean().optional(),
  db_anon_role: z.string().optional(),
  db_extra_search_path: z.string().optional(),
  db_max_rows: z.number().int().min(0).optional(),
  db_schemas: z.array(z.string()).optional(),
  jwt_role_claim_key: z.string().optional(),
  jwt_cache_max_lifetime: z.number().int().min(0).optional(),
  openapi_mode: z.string().optional(),
  server_cors_allowed_origins: z.string().optional(),
  server_timing_enabled: z.boolean().optional(),
});
/** Data API `settings`. */
export type DataApiSettingsInput = z.infer<typeof DataApiSettingsInputSchema>;

/** `POST …/data-api/{db}` body (all optional, the body too). */
export const DataApiCreateRequestSchema = z.object({
  auth_provider: z.enum(["neon_auth", "external"]).optional(),
  jwks_url: z.url().optional(),
  provider_name: z.string().optional(),
  jwt_audience: z.string().optional(),
  add_default_grants: z.boolean().optional(),
  skip_auth_schema: z.boolean().optional(),
  settings: DataApiSettingsInputSchema.optional(),
});
/** `POST …/data-api/{db}` body. */
export type DataApiCreateRequest = z.infer<typeof DataApiCreateRequestSchema>;

/** `PATCH …/data-api/{db}` body. */
export const DataApiUpdateRequestSchema = z.object({ settings: DataApiSettingsInputSchema.optional() });
/** `PATCH …/data-api/{db}` body. */
export type DataApiUpdateRequest = z.infer<typeof DataApiUpdateRequestSchema>;

/** `GET …/data-api/{db}` response; `settings` may be null. */
export const DataApiResponseSchema = z.looseObject({
  url: z.string(),
  status: z.string().optional(),
  settings: z.record(z.string(), z.unknown()).nullable().optional(),
  available_schemas: z.array(z.string()).optional(),
});
/** `GET …/data-api/{db}` response. */
export type DataApiResponse = z.infer<typeof DataApiResponseSchema>;

/** `POST …/data-api/{db}` 201 response. */
export const DataApiCreateResponseSchema = z.looseObject({ url: z.string().optional() });
/** `POST …/data-api/{db}` response. */
export type DataApiCreateResponse = z.infer<typeof DataApiCreateResponseSchema>;
