/** Schemas of `dataApi`: the definition, its variants' rules and `settings`. */
import * as z from "zod";
import { booleanOrObject, boundedString, check, strictObject } from "../../config/schemas/common.js";
import { fieldsSchema } from "../../config/schemas/fields.js";
import { DATA_API_SETTINGS } from "./fields.js";

const EXTERNAL_ONLY = ["jwksUrl", "providerName", "jwtAudience"] as const;

/** `dataApi.settings` (strict, camelCase keys), built from the Data API descriptor. */
const dataApiSettingsSchema = fieldsSchema(DATA_API_SETTINGS);

const jwksUrlSchema = check(z.string(), isHttpUrl, () => "must be an absolute http(s) URL");

/** `dataApi`: `true` = `{}`, `false` = `{ enabled: false }`, or a strict `DataApiDef`. */
export const dataApiSchema = booleanOrObject(
  () => ({}),
  () => ({ enabled: false }),
  strictObject(
    {
      enabled: z.boolean().optional(),
      authProvider: z.enum(["builtin", "external"]).optional(),
      jwksUrl: jwksUrlSchema.optional(),
      providerName: boundedString(1, 255).optional(),
      jwtAudience: boundedString(1, Infinity).optional(),
      database: boundedString(1, 63).optional(),
      settings: dataApiSettingsSchema.optional(),
    },
    "true, false or a Data API definition",
  ).superRefine((def, ctx) => {
    if (def.enabled === false) {
      for (const [field, value] of Object.entries(def)) {
        if (field !== "enabled" && value !== undefined) {
          ctx.addIssue({ code: "custom", path: [field], message: "has no effect when the Data API is disabled" });
        }
      }
      return;
    }
    if (def.authProvider !== "external") {
      for (const field of EXTERNAL_ONLY) {
        if (def[field] !== undefined) {
          ctx.addIssue({ code: "custom", path: [field], message: `set \`authProvider: "external"\` to use \`${field}\`` });
        }
      }
    }
  }),
);


function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
