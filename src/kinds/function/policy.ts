/** Schemas of `functions`: slugs, `FunctionDef`, env and custom domains. */
import * as z from "zod";
import { MAX_ENVIRONMENT_BYTES, markerHeadroomBytes, envValueIssue, environmentBytes, environmentEntryBytes, isValidEnvName } from "../../rules/environment.js";
import { reservedEnvNameIssue } from "../../rules/function-env.js";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { describeType, describeValue } from "../../config/issues.js";
import type { FileBundler } from "../../model/desired-state.js";
import { boundedString, check, recordOf, strictObject } from "../../config/schemas/common.js";
import { EXTERNAL_PACKAGES_NEED_ESBUILD, externalPackagesSchema } from "../../config/schemas/external-packages.js";
import { customDomainsSchema } from "../../kinds/domain/policy.js";

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
