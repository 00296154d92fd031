/** The policy's `postgres.computeSettings`: the public types and the schema. */
import type { Duration } from "../../config/durations.js";
import { strictObject } from "../../config/schemas/common.js";
import { fieldsSchema } from "../../config/schemas/fields.js";
import { COMPUTE_PAIR, COMPUTE_SETTINGS, computePairProblem } from "./fields.js";
import type { Assert, PolicyKeys, Same } from "../../config/schemas/type-match.js";

/** Compute sizes the platform offers, in compute units (docs/policy.md#compute-settings). */
export type ComputeSize =
  | 0.25 | 0.5 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16
  | 18 | 20 | 22 | 24 | 26 | 28 | 30 | 32 | 34 | 36 | 38 | 40 | 42 | 44 | 46 | 48 | 50 | 52 | 54 | 56;

/** Compute settings of the branch's read-write compute (docs/policy.md#compute-settings). */
export interface ComputeSettings {
  autoscalingLimitMinCu?: ComputeSize;
  autoscalingLimitMaxCu?: ComputeSize;
  /** `false` = never suspend, `0` = platform default, else 60 s to 7 days. */
  suspendTimeout?: false | 0 | Duration;
}

/** The compute kind's key of the branch closure's result. */
export interface ComputeTuning {
  postgres?: { computeSettings?: ComputeSettings };
}

/** What the schema says when both bounds are declared and break the pair rule (under `autoscalingLimitMaxCu`). */
const PAIR_MESSAGES = {
  "min-above-max": (min: number, max: number) => `must be at least autoscalingLimitMinCu (${min} CU); got ${max} CU`,
  "range-above-limit": (min: number, max: number) =>
    `autoscaling (min ≠ max) is offered up to ${COMPUTE_PAIR.autoscalingMaxCu} CU; got ${min}–${max} CU. ` +
    `Set both bounds to the same size for a fixed size above ${COMPUTE_PAIR.autoscalingMaxCu} CU`,
  "range-too-wide": (min: number, max: number) =>
    `the autoscaling range ${min}–${max} CU spans more than ${COMPUTE_PAIR.maxSpanCu} CU; raise autoscalingLimitMinCu or lower autoscalingLimitMaxCu`,
} as const;

/** `postgres.computeSettings` (strict), from the compute descriptor and its pair rule. */
export const computeSettingsSchema = fieldsSchema(COMPUTE_SETTINGS).superRefine((compute, ctx) => {
  const min = compute.autoscalingLimitMinCu;
  const max = compute.autoscalingLimitMaxCu;
  if (min === undefined || max === undefined) return;
  const problem = computePairProblem(min, max);
  if (problem !== undefined) ctx.addIssue({ code: "custom", path: ["autoscalingLimitMaxCu"], message: PAIR_MESSAGES[problem](min, max) });
});

/** The schema of the compute kind's key of the tuning, `postgres` (strict). */
export const computeTuningShape = {
  postgres: strictObject({ computeSettings: computeSettingsSchema.optional() }, "{ computeSettings?: … }").optional(),
};

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<keyof ComputeTuning, keyof typeof computeTuningShape>>,
  Assert<Same<keyof ComputeSettings, PolicyKeys<typeof COMPUTE_SETTINGS>>>,
];
