/**
 * Schema of `BranchTuning`, the branch closure's result (policy.md §10.2–§10.4). Durations come
 * out in seconds: `ttl` as seconds or `null` (`false`), `suspendTimeout` as -1, 0 or seconds.
 */
import * as z from "zod";
import { checkDuration, describeSeconds } from "../durations.js";
import { describeValue } from "../issues.js";
import { nameIssue } from "../../rules/names.js";
import { check, strictObject } from "./common.js";
import { customDomainsSchema, runtimeSchema } from "./functions.js";

const HOUR = 3600;
const DAY = 86_400;

/** The compute sizes the platform offers: 0.25, 0.5, integers 1–16, even numbers 18–56. */
const COMPUTE_SIZES: readonly number[] = [
  0.25, 0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

const computeSizeSchema = check(
  z.number(),
  (size) => COMPUTE_SIZES.includes(size),
  (size) => `${describeValue(size)} CU is not an offered compute size; allowed: 0.25, 0.5, 1–16, even numbers 18–56`,
);

/** A duration (or `false` when allowed) within `[min, max]` seconds, output in seconds. */
function boundedDuration(min: number, max: number) {
  return z.unknown().transform((value, ctx) => {
    const read = checkDuration(value);
    if (!read.valid) {
      ctx.addIssue({ code: "custom", message: read.message });
      return z.NEVER;
    }
    if (read.seconds < min || read.seconds > max) {
      const bound = read.seconds < min ? `at least ${describeSeconds(min)}` : `at most ${describeSeconds(max)}`;
      ctx.addIssue({ code: "custom", message: `must be ${bound} (got ${describeValue(value)})` });
      return z.NEVER;
    }
    return read.seconds;
  });
}

const ttlDuration = boundedDuration(HOUR, 30 * DAY);
const suspendDuration = boundedDuration(60, 7 * DAY);

/** `ttl`: 1 hour to 30 days, or `false` (output `null`: the branch must have no expiry). */
const ttlSchema = z.unknown().transform((value, ctx): number | null => {
  if (value === false) return null;
  if (value === true) {
    ctx.addIssue({ code: "custom", message: 'must be a duration such as "7d", or false for no expiry (got true)' });
    return z.NEVER;
  }
  return forward(ttlDuration.safeParse(value), ctx);
});

/** `suspendTimeout`: `false` (never, -1), `0` (platform default) or 60 s to 7 days. */
const suspendTimeoutSchema = z.unknown().transform((value, ctx): number => {
  if (value === false) return -1;
  if (value === 0) return 0;
  if (value === -1) {
    ctx.addIssue({ code: "custom", message: "-1 is not accepted here; use false to never suspend" });
    return z.NEVER;
  }
  return forward(suspendDuration.safeParse(value), ctx);
});

/** Passes a nested parse's value through, or re-reports its messages on the current path. */
function forward(read: z.ZodSafeParseResult<number>, ctx: z.RefinementCtx): number {
  if (read.success) return read.data;
  for (const issue of read.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  return z.NEVER;
}

/** `postgres.computeSettings` (strict) with the cross-field rules on the two bounds. */
const computeSettingsSchema = strictObject({
  autoscalingLimitMinCu: computeSizeSchema.optional(),
  autoscalingLimitMaxCu: computeSizeSchema.optional(),
  suspendTimeout: suspendTimeoutSchema.optional(),
}).superRefine((compute, ctx) => {
  const min = compute.autoscalingLimitMinCu;
  const max = compute.autoscalingLimitMaxCu;
  if (min === undefined || max === undefined || min === max) return;
  const path = ["autoscalingLimitMaxCu"];
  if (min > max) {
    ctx.addIssue({ code: "custom", path, message: `must be at least autoscalingLimitMinCu (${min} CU); got ${max} CU` });
  } else if (max > 16) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `autoscaling (min ≠ max) is offered up to 16 CU; got ${min}–${max} CU. Set both bounds to the same size for a fixed size above 16 CU`,
    });
  } else if (max - min > 8) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `the autoscaling range ${min}–${max} CU spans more than 8 CU; raise autoscalingLimitMinCu or lower autoscalingLimitMaxCu`,
    });
  }
});

/** Per-branch overrides of one function (strict). */
const functionTuningSchema = strictObject(
  { runtime: runtimeSchema.optional(), customDomains: customDomainsSchema.optional() },
  "{ runtime?, customDomains? }",
);

const functionTuningsSchema = z.record(z.string(), functionTuningSchema, {
  error: (issue) => (issue.code === "invalid_type" ? "must be an object of slug → { runtime?, customDomains? }" : undefined),
});

const parentSchema = check(
  z.string(),
  (name) => nameIssue(name, 256) === null,
  (name) => `must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it ${nameIssue(name, 256) ?? "is invalid"})`,
);

/** The branch closure's result (strict). `null`/`undefined` are turned into `{}` before it. */
export const branchTuningSchema = strictObject(
  {
    parent: parentSchema.optional(),
    protected: z.boolean().optional(),
    ttl: ttlSchema.optional(),
    postgres: strictObject({ computeSettings: computeSettingsSchema.optional() }, "{ computeSettings?: … }").optional(),
    functions: functionTuningsSchema.optional(),
    preview: strictObject({ functions: functionTuningsSchema.optional() }, "{ functions?: … }").optional(),
  },
  "an object (the branch tuning), null or undefined",
);

/** A validated branch tuning. */
export type ParsedBranchTuning = z.output<typeof branchTuningSchema>;
/** A validated per-branch function override. */
export type ParsedFunctionTuning = z.output<typeof functionTuningSchema>;
