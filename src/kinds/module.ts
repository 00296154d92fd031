/**
 * What a kind folder exports to the registry, in two parts: its light module (`index.ts`: the
 * facts its module states at run time, its policy and pull stages, which `resolvePolicy` and
 * `renderPolicySource` call synchronously) and its stages (`stages.ts`: diff, handlers, read,
 * replica seed), which the light module imports lazily. `kinds/list.ts`
 * holds one light module per kind of `KindFacts` and `kinds/modules.ts` joins each to its stages,
 * so a kind missing its module, or a module missing a stage, fails the build.
 */
import type { KindSeed } from "../api/wire/replica-seed.js";
import type { ChangeHandler, ExpectedWaits } from "../apply/execution-context.js";
import type { KindCreate } from "../apply/kind-create.js";
import type { KindResult } from "../apply/kind-result.js";
import type { KindTuning } from "../config/schemas/branch-tuning.js";
import type { KindPolicy, PruneFlag } from "../config/schemas/kind-policy.js";
import type { KindDiff } from "../diff/plan-types.js";
import type { KindPull, PulledBranchRecords } from "../inspect/kind-pull.js";
import type { KindRead } from "../inspect/read-live-state.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { PushResult } from "../model/plan.js";
import type { DigestViews, OpTypeOf } from "../model/planned-change.js";
import type { FeatureKind, KindFacts, LiveContributionOf, ResourceKind } from "./index.js";
import type * as z from "zod";

/** The facts of kind `K` its module states at run time (the registry's lookups read them). */
type Definition<K extends ResourceKind> = {
  /** The kind (its rank is its position in the registry, `kinds/list.ts`). */
  readonly name: K;
  /** See `KindDefinition`. */
  readonly scope: KindFacts[K]["scope"];
} & (KindFacts[K] extends { feature: infer F } ? { readonly feature: F } : unknown) &
  (KindFacts[K] extends { prunedByName: true } ? { readonly prunedByName: true } : unknown);

/** A kind's static policy stage as its fact `policy` (`{ keys?, preview?, prune? }`) requires it. */
type StaticPolicyOf<P> = KindPolicy &
  (P extends { keys: infer Keys }
    ? {
        /** A schema for each of its keys. */
        readonly keys: { readonly [Q in keyof Keys]-?: z.ZodType };
        readonly order: number;
        /** A kind with keys resolves them. */
        resolve(values: Readonly<Record<string, unknown>>): object;
      }
    : { readonly keys?: undefined }) &
  (P extends { preview: infer Homes } ? { readonly preview: { readonly [Q in keyof Homes]-?: number } } : { readonly preview?: undefined }) &
  (P extends { prune: infer Flag } ? { readonly prune: PruneFlag & { readonly flag: keyof Flag } } : { readonly prune?: undefined });

/** The policy and pull stages of kind `K`: what resolving a policy and writing a pulled one need of it. */
type PolicyStage<K extends ResourceKind> = (KindFacts[K] extends { policy: infer P }
  ? {
      /** Its part of the policy's static part (`kindPolicy(…)`): its top-level keys, their deprecated homes, its prune flag, its resolved fields. */
      readonly policy: StaticPolicyOf<P>;
    }
  : { readonly policy?: undefined }) & {
  /** What it adds to a pulled branch and to the `svc.ts` rendered from it, so a plan of the pulled file declares what is live. */
  readonly pull?: KindPull;
} & (KindFacts[K] extends { tuning: object }
  ? {
      /** Its keys of the branch tuning (`kindTuning(shape, resolve, check?)`): their schemas and its part of the resolved policy (branch settings, fields, its slice `desired.kinds`). */
      readonly tuning: KindTuning;
      /** A kind adding keys to the tuning pulls them. */
      readonly pull: KindPull & Required<Pick<KindPull, "tuning">>;
    }
  : { readonly tuning?: undefined }) &
  (KindFacts[K] extends { preview: infer P }
    ? {
        /** A kind with lists in a pull's `preview` gives them all (its fact `preview`). */
        readonly pull: KindPull & { readonly preview: (records: PulledBranchRecords) => P };
      }
    : unknown);

/** A value printed after an apply (text and JSON views), e.g. a function's URL. */
export interface ApplyOutput {
  /** The address of the resource it belongs to. */
  address: string;
  name: "invocationUrl" | "cnameTarget";
  value: string;
}

/** What the views of an operation's result print of a kind (they load the light modules, never the stages). */
type ViewStage = {
  /** Its values worth printing after an apply (function URLs, CNAME targets), from the result; absent: none. */
  readonly outputs?: (result: PushResult) => ApplyOutput[];
};

/**
 * The light module of kind `K` (its `index.ts`): what declaring and resolving a policy and viewing
 * a result need, and the loader of its stages, so importing the registry's list loads no diff,
 * handler or read.
 */
export type KindLight<K extends ResourceKind> = Definition<K> &
  PolicyStage<K> &
  ViewStage & {
    /** Imports the kind's stages (`stages.ts`); `kinds/modules.ts` calls it once, when it loads. */
    readonly stages: () => Promise<KindStages<K>>;
  };

/** The stages of kind `K` (its `stages.ts`): what planning, applying and reading need of it. */
export type KindStages<K extends ResourceKind> = KindDiff & {
  /** The handler of each of the kind's operations (those its facts declare). */
  readonly handlers: { readonly [T in OpTypeOf<K>]: ChangeHandler<T> };
  /** The planned values each of its operations' saved-plan digests holds as the operation's fields (see {@link DigestViews}). */
  readonly digests?: Pick<DigestViews, OpTypeOf<K>>;
  /** Its records in the seed of a replica of the branch (`--verify`), from the live state a plan read. */
  seed(live: LiveState): KindSeed;
  /** What it adds to an operation's result beside its changes and says of a saved plan's hidden differences. */
  readonly result?: KindResult;
  /** What it sets on a branch `createBranch` creates, in the create request, and what it refuses before anything is created. */
  readonly create?: KindCreate;
  /** What its operations typically wait for on the platform after their requests (absent: nothing); see {@link ExpectedWaits}. */
  readonly expectedWaits?: Pick<ExpectedWaits, OpTypeOf<K>>;
} & (KindFacts[K] extends { liveFields: unknown }
    ? {
        /** A kind with fields of the live state says how the state fingerprint commits to them. */
        readonly compared: NonNullable<KindDiff["compared"]>;
      }
    : unknown) &
  (KindFacts[K] extends { liveFields: unknown } | { live: unknown }
    ? {
        /**
         * Its read (wave 2): the read sources it needs for a policy and its fields of the live state
         * (fact `liveFields`) and its slice under `live.kinds` (fact `live`) built from them.
         */
        readonly read: KindRead<LiveContributionOf<K>>;
      }
    : { readonly read?: undefined }) &
  (K extends FeatureKind
    ? {
        /** Whether the policy declares anything of the kind: when the branch lacks its feature, the plan is blocked. */
        declares(desired: ResolvedPolicy): boolean;
      }
    : unknown);

/** The whole module of kind `K`: its light module's facts and policy stage with its stages. */
export type KindModule<K extends ResourceKind> = Definition<K> & PolicyStage<K> & ViewStage & KindStages<K>;
