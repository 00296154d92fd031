/** Wire shapes of the data API (api.md §9). */
import { z } from "zod";
import { DATA_API_SETTINGS } from "../../model/kinds/data-api.js";
import type { ValueOf, ValueRule } from "../../model/kinds/field.js";

/** The wire schema of one setting: the descriptor's rule, so client and emulator agree with the policy. */
function settingSchema(rule: ValueRule): z.ZodType {
  switch (rule.type) {
    case "boolean":
      return z.boolean();
    case "string":
      return rule.nonEmpty === true ? z.string().min(1) : z.string();
    case "integer":
      return z.number().int().min(rule.min);
    case "enum":
      return z.enum(rule.values);
    case "name-list":
      return z.array(z.string().min(1)).min(1);
  }
}

type SettingsInputShape = { [F in (typeof DATA_API_SETTINGS)[number] as F["wireKey"]]: z.ZodOptional<z.ZodType<ValueOf<F["rule"]>>> };

/** Data API `settings` on the request side, in wire names, built from the Data API descriptor. */
export const DataApiSettingsInputSchema = z.object(
  // The cast restates, key by key, the types the descriptor already gives each setting.
  Object.fromEntries(DATA_API_SETTINGS.map((field) => [field.wireKey, settingSchema(field.rule).optional()])) as SettingsInputShape,
);
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
