/**
 * Schema of `BranchTuning`, the branch closure's result; the branch
 * settings and compute settings come from their descriptors (`model/kinds/branch.ts`,
 * `compute.ts`). Durations come out in seconds: `ttl` as seconds or `null` (`false`),
 * `suspendTimeout` as -1, 0 or seconds.
 */
import * as z from "zod";
import { BRANCH_SETTINGS } from "../../model/kinds/branch.js";
import { COMPUTE_SETTINGS } from "../../model/kinds/compute.js";
import { nameIssue } from "../../rules/names.js";
import { check, strictObject } from "./common.js";
import { fieldsSchema, fieldsShape } from "./fields.js";
import { customDomainsSchema } from "../../kinds/domain/policy.js";
import { runtimeSchema } from "./functions.js";

/** `postgres.computeSettings` (strict) with the cross-field rules on the two bounds. */
const computeSettingsSchema = fieldsSchema(COMPUTE_SETTINGS).superRefine((compute, ctx) => {
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
    ...fieldsShape(BRANCH_SETTINGS),
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
