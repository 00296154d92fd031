/** Schemas of `dataApi` (policy.md §5): the definition, its variants' rules and `settings`. */
import * as z from "zod";
import { describeValue } from "../issues.js";
import { DATA_API_SETTINGS } from "../../model/kinds/data-api.js";
import type { FieldDescriptor, ValueOf } from "../../model/kinds/field.js";
import { booleanOrObject, boundedString, check, strictObject } from "./common.js";

const EXTERNAL_ONLY = ["jwksUrl", "providerName", "jwtAudience"] as const;

const integerAtLeast = (min: number) =>
  check(z.number(), (n) => Number.isSafeInteger(n) && n >= min, (n) => `must be an integer ≥ ${min} (got ${describeValue(n)})`);

/** A non-empty list of distinct, non-empty names; a repeat names both positions under `key`. */
function nameListSchema(what: string, key: string) {
  return z
    .array(boundedString(1, Infinity))
    .min(1, { error: `must list at least one ${what}` })
    .superRefine((names, ctx) => {
      for (const [index, name] of names.entries()) {
        const first = names.indexOf(name);
        if (first !== index) {
          ctx.addIssue({ code: "custom", path: [index], message: `${what} ${describeValue(name)} is listed twice: ${key}[${first}] and ${key}[${index}]` });
        }
      }
    });
}

/** The policy schema of one descriptor field, with the messages of policy.md. */
function fieldSchema(field: FieldDescriptor): z.ZodType {
  const { rule } = field;
  switch (rule.type) {
    case "boolean":
      return z.boolean();
    case "string":
      return rule.nonEmpty === true ? boundedString(1, Infinity) : z.string();
    case "integer":
      return integerAtLeast(rule.min);
    case "enum":
      return z.enum(rule.values);
    case "name-list":
      return nameListSchema(rule.what, field.policyKey);
  }
}

type SettingsShape = { [F in (typeof DATA_API_SETTINGS)[number] as F["policyKey"]]: z.ZodOptional<z.ZodType<ValueOf<F["rule"]>>> };

/** `dataApi.settings` (strict, camelCase keys), built from the Data API descriptor. */
const dataApiSettingsSchema = strictObject(
  // The cast restates, key by key, the types the descriptor already gives each field.
  Object.fromEntries(DATA_API_SETTINGS.map((field) => [field.policyKey, fieldSchema(field).optional()])) as SettingsShape,
);

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
