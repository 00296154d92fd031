/** Schemas of `dataApi`: the definition, its variants' rules and `settings`; its public key and static policy stage. */
import * as z from "zod";
import type { ConfigIssue } from "../../errors/index.js";
import { isRecord } from "../../config/cross-checks.js";
import { booleanOrObject, boundedString, check, strictObject } from "../../config/schemas/common.js";
import { fieldsSchema } from "../../config/schemas/fields.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import { sortedEntries } from "../../config/sort.js";
import type { ResolvedDataApi } from "./fields.js";
import { DATA_API_SETTINGS, type DataApiSettings } from "./fields.js";
import type { Assert, KeysOf, Parsed, Same } from "../../config/schemas/type-match.js";

/** Data API settings, camelCase (docs/policy.md#data-api-settings). Only declared keys are compared and sent. */
export interface DataApiSettingsDef {
  dbAggregatesEnabled?: boolean;
  /** Non-empty. */
  dbAnonRole?: string;
  dbExtraSearchPath?: string;
  /** Integer ≥ 1. */
  dbMaxRows?: number;
  /** Non-empty list of distinct, non-empty names; the first is the default schema. */
  dbSchemas?: string[];
  /** Non-empty. */
  jwtRoleClaimKey?: string;
  /** Seconds, integer ≥ 0. */
  jwtCacheMaxLifetime?: number;
  openapiMode?: "ignore-privileges" | "disabled";
  serverCorsAllowedOrigins?: string;
  serverTimingEnabled?: boolean;
}

interface DataApiCommon {
  /** Database the Data API (and the auth integration) is attached to. @default "neondb" */
  database?: string;
  settings?: DataApiSettingsDef;
}

/** An enabled Data API verifying tokens of the branch's own auth integration (needs `auth` on). */
export interface DataApiBuiltinDef extends DataApiCommon {
  enabled?: true;
  /** @default "builtin" */
  authProvider?: "builtin";
  jwksUrl?: never;
  providerName?: never;
  jwtAudience?: never;
}

/** An enabled Data API verifying tokens of a third-party identity provider. */
export interface DataApiExternalDef extends DataApiCommon {
  enabled?: true;
  authProvider: "external";
  /** Absolute http(s) URL; required when the plan must create the Data API. */
  jwksUrl?: string;
  /** 1–255 characters. */
  providerName?: string;
  /** Non-empty. */
  jwtAudience?: string;
}

/** A disabled Data API: an existing one is deleted. No other field may be set. */
export interface DataApiDisabledDef {
  enabled: false;
  authProvider?: never;
  jwksUrl?: never;
  providerName?: never;
  jwtAudience?: never;
  database?: never;
  settings?: never;
}

/** The Data API variants (docs/policy.md#dataapi). */
export type DataApiDef = DataApiBuiltinDef | DataApiExternalDef | DataApiDisabledDef;

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

/** The Data API kind's top-level key of the policy. */
export interface DataApiPolicyKeys {
  /** Data API; `false` deletes an existing one. Omitted = not managed. */
  dataApi?: boolean | DataApiDef;
}

/** The Data API's field of the resolved policy. */
export interface DataApiResolvedFields {
  dataApi: ResolvedDataApi;
}

/** The Data API kind's static policy: `dataApi`, resolved with its defaults (database `neondb`, the built-in provider). */
export const dataApiPolicy = kindPolicy({
  order: 20,
  keys: { dataApi: dataApiSchema },
  resolve: ({ dataApi }): DataApiResolvedFields => ({ dataApi: resolveDataApi(dataApi) }),
  crossChecks: authIssues,
});

/** An enabled Data API with the built-in provider needs `auth` on; reported on `auth`. */
function authIssues(policy: Readonly<Record<string, unknown>>): ConfigIssue[] {
  const dataApi = policy.dataApi === true ? {} : policy.dataApi;
  if (!isRecord(dataApi) || dataApi.enabled === false) return [];
  if (dataApi.authProvider !== undefined && dataApi.authProvider !== "builtin") return [];
  const auth = policy.auth;
  const authOff = auth === undefined || auth === false || (isRecord(auth) && auth.enabled === false);
  if (!authOff) return [];
  return [
    {
      path: "auth",
      message: 'the Data API uses the built-in auth provider; set `auth: true` or use `authProvider: "external"`',
    },
  ];
}


function resolveDataApi(dataApi: z.output<typeof dataApiSchema> | undefined): ResolvedDataApi {
  if (dataApi === undefined) return { state: "unmanaged" };
  if (dataApi.enabled === false) return { state: "disabled" };
  const settings: Partial<DataApiSettings> = {};
  for (const [key, value] of sortedEntries<unknown>(dataApi.settings ?? {})) {
    if (value !== undefined) Object.assign(settings, { [key]: Array.isArray(value) ? [...value] : value });
  }
  return {
    state: "enabled",
    database: dataApi.database ?? "neondb",
    authProvider: dataApi.authProvider ?? "builtin",
    ...(dataApi.jwksUrl === undefined ? {} : { jwksUrl: dataApi.jwksUrl }),
    ...(dataApi.providerName === undefined ? {} : { providerName: dataApi.providerName }),
    ...(dataApi.jwtAudience === undefined ? {} : { jwtAudience: dataApi.jwtAudience }),
    settings,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<KeysOf<Exclude<DataApiDef, boolean>>, KeysOf<Parsed<typeof dataApiSchema>>>>,
  Assert<Same<Required<DataApiSettingsDef>, DataApiSettings>>,
  Assert<Same<KeysOf<Required<Parsed<typeof dataApiSchema>>["settings"]>, keyof DataApiSettings>>,
];
