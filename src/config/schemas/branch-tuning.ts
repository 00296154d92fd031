/**
 * The branch closure's result, `BranchTuning`: its one generic key, `parent`, and the shape of a
 * kind's keys (`kindTuning`), which each kind adds from its folder (branch settings, compute
 * settings, function overrides, read replicas, …).
 */
import * as z from "zod";
import type { ConfigIssue } from "../../errors/index.js";
import type { DesiredSlices, KindBranchSettings, KindResolvedFields } from "../../kinds/index.js";
import type { BranchTarget } from "../../model/desired-state.js";
import { nameIssue } from "../../rules/names.js";
import { check, strictObject } from "./common.js";
import type { ParsedPolicy } from "./policy.js";

const parentSchema = check(
  z.string(),
  (name) => nameIssue(name, 256) === null,
  (name) => `must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it ${nameIssue(name, 256) ?? "is invalid"})`,
);

/** The tuning's own keys (strict); the kinds' keys extend it. `null`/`undefined` are turned into `{}` before it. */
export const branchTuningSchema = strictObject({ parent: parentSchema.optional() }, "an object (the branch tuning), null or undefined");

/** The tuning's own keys, validated. */
export type ParsedBranchTuning = z.output<typeof branchTuningSchema>;

/** What a kind's keys of the tuning are resolved with, beside their values. */
export interface TuningContext {
  /** The branch the closure was called for (frozen). */
  readonly target: Readonly<BranchTarget>;
  /** The validated static policy, which the keys may refer to (a function's overrides name a declared function). */
  readonly policy: ParsedPolicy;
  /** Absolute base directory of relative sources, or `null`. */
  readonly baseDir: string | null;
}

/** What a kind's keys of the tuning resolve to; the registry merges the kinds' parts in rank order. */
export interface TunedPart {
  /** Its settings of the branch (`desired.branch`, fact `resolvedBranch`), beside the tuning's `parent` and the other kinds' settings. */
  readonly branch?: Partial<KindBranchSettings>;
  /** Its fields of the resolved policy (fact `resolvedFields`). */
  readonly fields?: Partial<KindResolvedFields>;
  /** Its slice of the resolved policy (`desired.kinds`). */
  readonly kinds?: DesiredSlices;
  /** The deprecated keys its values used (`branch.preview.functions`). */
  readonly deprecatedKeys?: readonly string[];
  /** What refuses the tuning once its values are resolved together (a hostname serving two functions); none when valid. */
  readonly issues?: readonly ConfigIssue[];
}

/**
 * A kind's keys of the branch tuning (`readReplicas`, `postgres`, …): each key's schema, validated with the
 * rest of the closure's result (issues under `branch.<key>`; a key neither the tuning nor a kind
 * owns is refused, with the nearest known key), and its part of the resolved policy from their values.
 */
export interface KindTuning {
  readonly shape: Readonly<Record<string, z.ZodType>>;
  /** Issues of its keys' values as the closure returned them against the static policy (undeclared names), reported with the schema's. */
  check?(values: Readonly<Record<string, unknown>>, policy: ParsedPolicy): ConfigIssue[];
  /** Its part of the resolved policy from its keys' values, already parsed by `shape` with the rest of the tuning. */
  resolve(values: Readonly<Record<string, unknown>>, context: TuningContext): TunedPart;
}

/** A kind's tuning whose `resolve` reads its keys' values as `shape` parsed them (durations in seconds, defaults filled, …). */
export function kindTuning<S extends Record<string, z.ZodType>>(
  shape: S,
  resolve: (values: z.output<z.ZodObject<S>>, context: TuningContext) => TunedPart,
  check?: KindTuning["check"],
): KindTuning {
  return { shape, resolve: (values, context) => resolve(values as z.output<z.ZodObject<S>>, context), ...(check === undefined ? {} : { check }) };
}
