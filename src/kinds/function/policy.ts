/** Schemas of `functions`: slugs, `FunctionDef`, env and custom domains. */
import * as z from "zod";
import { MAX_ENVIRONMENT_BYTES, markerHeadroomBytes, envValueIssue, environmentBytes, environmentEntryBytes, isValidEnvName } from "../../rules/environment.js";
import { reservedEnvNameIssue } from "../../rules/function-env.js";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { describeType, describeValue } from "../../config/issues.js";
import type { FileBundler } from "../../model/desired-state.js";
import { type Toggle, boundedString, check, isOn, recordOf, strictObject, toggleSchema } from "../../config/schemas/common.js";
import { type PolicyValues, kindPolicy } from "../../config/schemas/kind-policy.js";
import { formatPath } from "../../config/issues.js";
import { sortedEntries } from "../../config/sort.js";
import type { ConfigIssue } from "../../errors/index.js";
import { isAbsolute } from "node:path";
import { EXTERNAL_PACKAGES_NEED_ESBUILD, externalPackagesSchema } from "../../config/schemas/external-packages.js";
import { customDomainsSchema } from "../../kinds/domain/policy.js";
import type { Assert, KeysOf, Parsed, Same } from "../../config/schemas/type-match.js";
import type { DOMAIN_HOSTNAME } from "../domain/fields.js";
import type { ValueOf } from "../../model/kinds/field.js";
import type { FunctionValues } from "./fields.js";

const SLUG = /^[a-z0-9]{1,20}$/;

/** A function slug: 1–20 characters from a–z and 0–9. */
const slugSchema = z.string().regex(SLUG, {
  error: (issue) => `slug \`${escapeUnsafeText(String(issue.input))}\` is invalid: use 1 to 20 characters from a–z and 0–9`,
});

/**
 * `env`: valid names, string values. An `undefined` value gets its own message (an unset
 * environment variable is the usual cause); values never appear in messages.
 */
const envSchema = recordOf(z.string(), z.unknown(), "an object of name → string")
  .superRefine((env, ctx) => {
    let oversized = false;
    const headroom = markerHeadroomBytes(Object.keys(env).length);
    const budget = MAX_ENVIRONMENT_BYTES - headroom;
    const tooBig = (bytes: number): string =>
      `is ${bytes} bytes as JSON; a function's whole environment may be at most ${budget} bytes here (the platform's ${MAX_ENVIRONMENT_BYTES}, less ${headroom} for the engine's deployment markers): keep large data in a bucket or a file`;
    for (const [key, value] of Object.entries(env)) {
      const keyProblem = envKeyProblem(key);
      if (keyProblem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: keyProblem });
      if (value === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `value is undefined (is an environment variable unset?). Set a value, or write "" to delete ${key} from the deployed function.`,
        });
      } else if (typeof value !== "string") {
        ctx.addIssue({ code: "custom", path: [key], message: `must be a string (got ${describeType(value)})` });
      } else {
        const valueIssue = envValueIssue(value);
        if (valueIssue !== null) ctx.addIssue({ code: "custom", path: [key], message: valueIssue });
        else if (environmentEntryBytes(key, value) > budget) {
          ctx.addIssue({ code: "custom", path: [key], message: `value ${tooBig(environmentEntryBytes(key, value))}` });
          oversized = true;
        }
      }
    }
    const strings = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const total = environmentBytes(strings);
    if (!oversized && total > budget) {
      ctx.addIssue({ code: "custom", path: [], message: tooBig(total) });
    }
  })
  .transform((env) => Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string")));

function envKeyProblem(key: string): string | undefined {
  if (!isValidEnvName(key)) {
    return `env name ${escapeUnsafeText(describeValue(key))} is invalid: use letters, digits and _ (not starting with a digit), at most 255 characters`;
  }
  return reservedEnvNameIssue(key) ?? undefined;
}

/** The only function runtime. */
export type FunctionRuntime = "nodejs24";

interface FunctionDefCommon {
  /** Display name, 1–255 characters after trimming. */
  name: string;
  /** Entry file or directory, relative to the policy file's directory. */
  source: string;
  /**
   * Environment variables; `""` deletes a variable, an omitted key keeps the deployed value. Names
   * starting with `SVC_` and the names the platform injects (`DATABASE_URL`, `AWS_*`, …) are refused.
   */
  env?: Record<string, string>;
  /** @default "nodejs24" */
  runtime?: FunctionRuntime;
  /** Hostnames; the static list applies only to the default branch (docs/policy.md#custom-domains). */
  customDomains?: string[];
  /** `svc dev` only: the local port this function is served on. @default the first free port from 8787 */
  dev?: { port?: number };
}

/**
 * A package esbuild leaves out of the bundle (docs/policy.md#externalpackages): a native module,
 * or one that reads its own files at run time. With `includeFiles` (the default) the version
 * installed in the project is staged for linux/arm64/glibc and shipped under `node_modules/`;
 * `includeFiles: false` only marks it external (the runtime must provide it).
 */
export type ExternalPackage = string | { name: string; includeFiles?: boolean };

/** A function bundled by esbuild (the default). */
export interface EsbuildFunctionDef extends FunctionDefCommon {
  /** @default "esbuild" */
  bundler?: "esbuild";
  /** Ship `index.mjs.map` (no embedded sources). @default false */
  sourcemap?: boolean;
  /** Packages shipped unbundled under `node_modules/` (esbuild only). @default [] */
  externalPackages?: ExternalPackage[];
}

/** A function shipped as is (`"none"`) or built by a custom bundler; no source maps, no external packages. */
export interface OtherBundlerFunctionDef extends FunctionDefCommon {
  bundler: "none" | FileBundler;
  sourcemap?: false;
  externalPackages?: never;
}

/** A function of the branch (docs/policy.md#functions). */
export type FunctionDef = EsbuildFunctionDef | OtherBundlerFunctionDef;

/** The only runtime, `"nodejs24"`. */
export const runtimeSchema = z.literal("nodejs24");

/** `"esbuild"`, `"none"` or a `FileBundler` function. */
const bundlerSchema = z.custom<"esbuild" | "none" | FileBundler>(
  (value) => value === "esbuild" || value === "none" || typeof value === "function",
  { error: (issue) => `must be "esbuild", "none" or a bundler function (got ${describeValue(issue.input)})` },
);

const portSchema = check(
  z.number(),
  (port) => Number.isInteger(port) && port >= 1 && port <= 65_535,
  (port) => `must be an integer from 1 to 65535 (got ${describeValue(port)})`,
);

/** One `FunctionDef` (strict). */
export const functionDefSchema = strictObject(
  {
    name: boundedString(1, 255, { trim: true }),
    source: boundedString(1, Infinity),
    env: envSchema.optional(),
    runtime: runtimeSchema.optional(),
    bundler: bundlerSchema.optional(),
    sourcemap: z.boolean().optional(),
    customDomains: customDomainsSchema.optional(),
    dev: strictObject({ port: portSchema.optional() }, "{ port?: number }").optional(),
    externalPackages: externalPackagesSchema.optional(),
  },
  "a function definition { name, source, … }",
).superRefine((fn, ctx) => {
  if (fn.sourcemap === true && fn.bundler !== undefined && fn.bundler !== "esbuild") {
    ctx.addIssue({
      code: "custom",
      path: ["sourcemap"],
      message: 'only the esbuild bundler ships source maps; remove `sourcemap` or use bundler "esbuild"',
    });
  }
  if (fn.externalPackages !== undefined && fn.bundler !== undefined && fn.bundler !== "esbuild") {
    ctx.addIssue({ code: "custom", path: ["externalPackages"], message: EXTERNAL_PACKAGES_NEED_ESBUILD });
  }
});

/** `functions` (and `preview.functions`): slug → `FunctionDef`. */
export const functionsSchema = recordOf(slugSchema, functionDefSchema, "an object of slug → function definition");

/** A validated, normalised function definition. */
export type ParsedFunctionDef = z.output<typeof functionDefSchema>;

/** Per-branch overrides of one declared function. */
export interface FunctionTuning {
  runtime?: FunctionRuntime;
  /** Replaces the static list on this branch; `[]` = none. */
  customDomains?: string[];
}

/** The function kind's keys of the branch closure's result. */
export interface FunctionTuningKeys {
  functions?: Record<string, FunctionTuning>;
  /** @deprecated use `functions`. */
  preview?: { functions?: Record<string, FunctionTuning> };
}

/** Per-branch overrides of one function (strict). */
const functionTuningSchema = strictObject(
  { runtime: runtimeSchema.optional(), customDomains: customDomainsSchema.optional() },
  "{ runtime?, customDomains? }",
);

const functionTuningsSchema = z.record(z.string(), functionTuningSchema, {
  error: (issue) => (issue.code === "invalid_type" ? "must be an object of slug → { runtime?, customDomains? }" : undefined),
});

/** The schemas of the function kind's keys of the tuning: `functions` and its deprecated home `preview.functions`. */
export const functionTuningShape = {
  functions: functionTuningsSchema.optional(),
  preview: strictObject({ functions: functionTuningsSchema.optional() }, "{ functions?: … }").optional(),
};

/** A validated per-branch function override. */
export type ParsedFunctionTuning = z.output<typeof functionTuningSchema>;

/** The function kind's top-level keys of the policy. */
export interface FunctionPolicyKeys {
  /** Informational only. @default false */
  aiGateway?: Toggle;
  /** Keyed by slug (`^[a-z0-9]{1,20}$`). */
  functions?: Record<string, FunctionDef>;
}

/** The deprecated homes of the function kind's keys. */
export interface FunctionPreviewKeys {
  /** @deprecated use the top-level `functions`. */
  functions?: Record<string, FunctionDef>;
  /** @deprecated use the top-level `aiGateway`. */
  aiGateway?: Toggle;
}

/** The declared functions and the path segments of their home (`functions` or `preview.functions`). */
export interface DeclaredFunctions {
  bySlug: Readonly<Record<string, ParsedFunctionDef>>;
  home: readonly string[];
}

/** The homes of the functions in a validated static policy, as `functionsSchema` parsed them. */
type FunctionHomes = PolicyValues<{ functions: typeof functionsSchema }> & { readonly preview?: PolicyValues<{ functions: typeof functionsSchema }> };

/** The functions a validated policy declares: its `functions`, or the deprecated `preview.functions` when it has none. */
export function declaredFunctions(policy: Readonly<Record<string, unknown>>): DeclaredFunctions {
  // Both homes were validated by `functionsSchema` (the kind's static policy) before any stage reads them.
  const homes = policy as FunctionHomes;
  if (homes.functions === undefined && homes.preview?.functions !== undefined) {
    return { bySlug: homes.preview.functions, home: ["preview", "functions"] };
  }
  return { bySlug: homes.functions ?? {}, home: ["functions"] };
}

/** Issues of relative sources when there is no base directory to resolve them against. */
export function sourceIssues(declared: DeclaredFunctions, baseDir: string | null): ConfigIssue[] {
  if (baseDir !== null) return [];
  return sortedEntries(declared.bySlug)
    .filter(([, fn]) => !isAbsolute(fn.source))
    .map(([slug]) => ({
      path: formatPath([...declared.home, slug, "source"]),
      message: "relative source needs a base directory; load the policy with loadConfigFromFile or pass baseDir",
    }));
}

/**
 * The function kind's static policy: `aiGateway` and `functions` (deprecated homes `preview.*`),
 * `prune.functions`, relative sources refused without a base directory. Its resolved `functions`
 * come from its tuning, which has the branch's overrides.
 */
export const functionPolicy = kindPolicy({
  order: 30,
  keys: { aiGateway: toggleSchema, functions: functionsSchema },
  preview: { functions: 10, aiGateway: 30 },
  prune: { flag: "functions", order: 10 },
  resolve: ({ aiGateway }) => ({ aiGateway: isOn(aiGateway) }),
  check: (policy, { baseDir }) => sourceIssues(declaredFunctions(policy), baseDir),
});

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<KeysOf<FunctionDef>, KeysOf<Parsed<typeof functionDefSchema>>>>,
  Assert<Same<keyof FunctionTuningKeys, keyof typeof functionTuningShape>>,
  Assert<Same<keyof NonNullable<FunctionTuningKeys["preview"]>, KeysOf<Parsed<(typeof functionTuningShape)["preview"]>>>>,
  Assert<Same<keyof FunctionTuning, keyof ParsedFunctionTuning>>,
  // A function's declarative fields; `source`, `bundler`, `sourcemap`, `env`, `dev` feed the bundle and the deployment.
  Assert<Same<Required<Pick<FunctionDef, keyof FunctionValues>>, FunctionValues>>,
  // A function's `customDomains` lists the domain kind's keys.
  Assert<Same<NonNullable<FunctionDef["customDomains"]>[number], ValueOf<(typeof DOMAIN_HOSTNAME)["rule"]>>>,
];
