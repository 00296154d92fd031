/** Wire shapes of the Data API: its requests (settings from the kind's descriptor) and responses. */
import { z } from "zod";
import { wireFieldsSchema } from "../../api/wire/fields.js";
import { DATA_API_SETTINGS } from "./fields.js";

/** Data API `settings` on the request side, in wire names, built from the Data API descriptor. */
export const DataApiSettingsInputSchema = wireFieldsSchema(DATA_API_SETTINGS);
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
