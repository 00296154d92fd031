/**
 * What a kind folder exports to the registry: one typed module per kind carrying its stage
 * functions. `kinds/modules.ts` holds one per kind of `kinds/index.ts`, so a kind missing its
 * module, or a module missing a stage, fails the build.
 */
import type { KindSeed } from "../api/wire/replica-seed.js";
import type { ChangeHandler } from "../apply/execution-context.js";
import type { KindDiff } from "../diff/plan-types.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { OpTypeOf } from "../model/planned-change.js";
import type { FeatureKind, ResourceKind } from "./index.js";

/** The stage functions of kind `K`. */
export type KindModule<K extends ResourceKind> = KindDiff & {
  /** The kind (its scope, feature and rank come from its entry in `kinds/index.ts`). */
  readonly name: K;
  /** The handler of each of the kind's operations (those named `<kind>-<verb>`). */
  readonly handlers: { readonly [T in OpTypeOf<K>]: ChangeHandler<T> };
  /** Its records in the seed of a replica of the branch (`--verify`), from the live state a plan read. */
  seed(live: LiveState): KindSeed;
} & (K extends FeatureKind
    ? {
        /** Whether the policy declares anything of the kind: when the branch lacks its feature, the plan is blocked. */
        declares(desired: ResolvedPolicy): boolean;
      }
    : unknown);
