/**
 * The compute resource kind (docs/policy.md#compute-settings): the settings of a branch's
 * read-write compute endpoint, `branch(t).postgres.computeSettings` in a policy. The policy
 * schema, the public type's compile-time check, the inspector, the diff, the handler, the pull
 * and branch creation read this descriptor and its pair rule. The policy states sizes from the
 * offered set and durations as text; the model (and the wire) holds what the platform reports:
 * numbers, seconds.
 */
import type { FieldDescriptor, ModelValues } from "../../model/kinds/field.js";

/** The compute sizes the platform offers (CU): 0.25, 0.5, integers 1–16, even numbers 18–56. */
export const COMPUTE_SIZES: readonly number[] = [
  0.25, 0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

/** The compute sizes as a value rule (the policy's and the endpoint requests'). */
export const COMPUTE_SIZE = {
  type: "number-in",
  values: COMPUTE_SIZES,
  what: "compute size",
  unit: "CU",
  allowed: "0.25, 0.5, 1–16, even numbers 18–56",
} as const;

/**
 * The suspend timeout as a value rule: 60 s to 7 days, `0` (the platform's default) or, from a
 * policy's `false`, -1 (never).
 */
export const SUSPEND_TIMEOUT = { type: "duration", min: 60, max: 7 * 86_400, off: { model: -1, means: "to never suspend" }, zero: true } as const;

/** The compute settings, in the order plans, pulls and requests list them. */
export const COMPUTE_SETTINGS = [
  {
    policyKey: "autoscalingLimitMinCu",
    modelKey: "minCu",
    wireKey: "autoscaling_limit_min_cu",
    rule: { type: "number" },
    policyRule: COMPUTE_SIZE,
    compare: "exact",
    changeClass: "override",
    pulled: true,
  },
  {
    policyKey: "autoscalingLimitMaxCu",
    modelKey: "maxCu",
    wireKey: "autoscaling_limit_max_cu",
    rule: { type: "number" },
    policyRule: COMPUTE_SIZE,
    compare: "exact",
    changeClass: "override",
    pulled: true,
  },
  {
    policyKey: "suspendTimeout",
    modelKey: "suspendTimeoutSeconds",
    wireKey: "suspend_timeout_seconds",
    rule: { type: "number" },
    policyRule: SUSPEND_TIMEOUT,
    compare: "duration",
    changeClass: "override",
    pulled: true,
  },
] as const satisfies readonly FieldDescriptor[];

/** The compute settings in model vocabulary (seconds, CU), every key present. */
export type ComputeValues = ModelValues<typeof COMPUTE_SETTINGS>;

/**
 * The platform's rule on the two bounds: min ≤ max, and a range (min ≠ max) reaches at most
 * `autoscalingMaxCu` and spans at most `maxSpanCu`; a fixed size (min = max) may be any offered size.
 */
export const COMPUTE_PAIR = { autoscalingMaxCu: 16, maxSpanCu: 8 } as const;

/** The pair rule in words, for the reasons of conflicts that name it. */
export const COMPUTE_PAIR_RULE = `min ≤ max; autoscaling ranges at most ${COMPUTE_PAIR.autoscalingMaxCu} CU and at most ${COMPUTE_PAIR.maxSpanCu} CU wide`;

/** Which part of the pair rule a (min, max) pair breaks. */
export type ComputePairProblem = "min-above-max" | "range-above-limit" | "range-too-wide";

/** What is wrong with a (min, max) pair of compute sizes, or `undefined` when the platform accepts it. */
export function computePairProblem(min: number, max: number): ComputePairProblem | undefined {
  if (min > max) return "min-above-max";
  if (min === max) return undefined;
  if (max > COMPUTE_PAIR.autoscalingMaxCu) return "range-above-limit";
  return max - min > COMPUTE_PAIR.maxSpanCu ? "range-too-wide" : undefined;
}

/** The compute's operation: `planned`, the changed settings of the endpoint `op.endpointId`. */
export interface ComputeOperations {
  "compute-update": { op: { endpointId: string }; planned: Partial<ComputeValues> };
}

/** The compute kind's setting of the resolved policy's branch (`desired.branch`). */
export interface ComputeResolvedSettings {
  /** `suspendTimeoutSeconds`: -1 never, 0 platform default. */
  compute?: Partial<ComputeValues>;
}

/** The branch's read-write endpoint as read: its id and settings. */
export type LiveCompute = { endpointId: string } & ComputeValues;

/** The compute kind's field of the live state (`LiveState`). */
export interface ComputeLiveFields {
  /** The first read-write endpoint, or null when the branch has none. */
  compute: LiveCompute | null;
}
