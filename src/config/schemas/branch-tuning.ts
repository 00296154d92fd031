/**
 * Schema of `BranchTuning`, the branch closure's result; the branch
 * settings and compute settings come from their descriptors (`kinds/branch/`,
 * `kinds/compute/`). Durations come out in seconds: `ttl` as seconds or `null` (`false`),
 * `suspendTimeout` as -1, 0 or seconds.
 */
import * as z from "zod";
import type { DesiredSlices } from "../../kinds/index.js";
import type { BranchTarget } from "../../model/desired-state.js";
import { branchSettingsShape } from "../../kinds/branch/policy.js";
import { nameIssue } from "../../rules/names.js";
import { check, strictObject } from "./common.js";
import { computeSettingsSchema } from "../../kinds/compute/policy.js";
import { customDomainsSchema } from "../../kinds/domain/policy.js";
import { runtimeSchema } from "../../kinds/function/policy.js";

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
    ...branchSettingsShape,
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

/**
 * A kind's keys of the branch tuning (`readReplicas`, …): each key's schema, validated with the
 * rest of the closure's result (issues under `branch.<key>`; a key neither the tuning nor a kind
 * owns is refused), and the kind's slice of the resolved policy from their values.
 */
export interface KindTuning {
  readonly shape: Readonly<Record<string, z.ZodType>>;
  /** The kind's slice (`{ <kind>: … }`, `{}` when the keys declare nothing) from its keys' values as the closure returned them, already valid. */
  resolve(values: Readonly<Record<string, unknown>>, target: Readonly<BranchTarget>): DesiredSlices;
}

/** A kind's tuning whose `resolve` reads its keys' values parsed by `shape` (durations in seconds, defaults filled, …). */
export function kindTuning<S extends Record<string, z.ZodType>>(
  shape: S,
  resolve: (values: z.output<z.ZodObject<S>>, target: Readonly<BranchTarget>) => DesiredSlices,
): KindTuning {
  const schema = z.object(shape);
  return { shape, resolve: (values, target) => resolve(schema.parse(values), target) };
}
