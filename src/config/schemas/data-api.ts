/** Schemas of `dataApi` (policy.md §5): the definition, its variants' rules and `settings`. */
import * as z from "zod";
import { describeValue } from "../issues.js";
import { booleanOrObject, boundedString, check, strictObject } from "./common.js";

const EXTERNAL_ONLY = ["jwksUrl", "providerName", "jwtAudience"] as const;

const integerAtLeast = (min: number) =>
  check(z.number(), (n) => Number.isSafeInteger(n) && n >= min, (n) => `must be an integer ≥ ${min} (got ${describeValue(n)})`);

const schemaListSchema = z
  .array(boundedString(1, Infinity))
  .min(1, { error: "must list at least one schema" })
  .superRefine((schemas, ctx) => {
    for (const [index, name] of schemas.entries()) {
      const first = schemas.indexOf(name);
      if (first !== index) {
        ctx.addIssue({ code: "custom", path: [index], message: `schema ${describeValue(name)} is listed twice: dbSchemas[${first}] and dbSchemas[${index}]` });
      }
    }
  });

/** `dataApi.settings` (strict, camelCase keys). */
const dataApiSettingsSchema = strictObject({
  dbAggregatesEnabled: z.boolean().optional(),
  dbAnonRole: boundedString(1, Infinity).optional(),
  dbExtraSearchPath: z.string().optional(),
  dbMaxRows: integerAtLeast(1).optional(),
  dbSchemas: schemaListSchema.optional(),
  jwtRoleClaimKey: boundedString(1, Infinity).optional(),
  jwtCacheMaxLifetime: integerAtLeast(0).optional(),
  openapiMode: z.enum(["ignore-privileges", "disabled"]).optional(),
  serverCorsAllowedOrigins: z.string().optional(),
  serverTimingEnabled: z.boolean().optional(),
});

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
