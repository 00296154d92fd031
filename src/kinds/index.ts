/**
 * The kinds' names and their classes, as types every layer may read: derived from the facts each
 * kind folder declares (`KindFacts`, in `registry.ts`). The kinds themselves, in rank order, are
 * the registry's list (`kinds/list.ts`). It imports only `registry.ts`.
 */
import type { KindFacts } from "./registry.js";

export type { KindDefinition, KindFacts } from "./registry.js";

/** The resource kinds a plan talks about. */
export type ResourceKind = keyof KindFacts;

/** The kinds that need a platform feature which a branch may lack. */
export type FeatureKind = { [K in ResourceKind]: KindFacts[K] extends { feature: string } ? K : never }[ResourceKind];

/** The kinds prune deletes by name. */
export type PrunedKind = { [K in ResourceKind]: KindFacts[K] extends { prunedByName: true } ? K : never }[ResourceKind];

/** Fact `F` of kind `K`, or `never` when its facts hold none. */
type FactOf<K extends ResourceKind, F extends string> = KindFacts[K] extends { [P in F]: infer V } ? V : never;

/** The kinds whose facts hold `F`. */
type KindsWith<F extends string> = { [K in ResourceKind]: KindFacts[K] extends { [P in F]: unknown } ? K : never }[ResourceKind];

/**
 * The kinds' own slices of the resolved policy (`desired.kinds`), by kind: fact `desired` of the
 * kinds that declare one. A kind absent from it declares nothing on the branch.
 */
export type DesiredSlices = { [K in KindsWith<"desired">]?: FactOf<K, "desired"> };

/** The kinds' own slices of the live state (`live.kinds`), by kind: fact `live`. A kind absent from it was not read. */
export type LiveSlices = { [K in KindsWith<"live">]?: FactOf<K, "live"> };

/** `A | B` → `A & B`. */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The keys the kinds add to what the branch closure returns (fact `tuning`: their authoring types), all optional. */
export type KindTunings = Intersection<{ [K in KindsWith<"tuning">]: FactOf<K, "tuning"> }[KindsWith<"tuning">]> & object;

/** The lists the kinds add to a pulled branch's `preview` (fact `preview`: live items a policy cannot carry). */
export type KindPreviews = Intersection<{ [K in KindsWith<"preview">]: FactOf<K, "preview"> }[KindsWith<"preview">]> & object;

/**
 * The fields the kinds add to the resolved policy (fact `resolvedFields`), under the names plans
 * have always used (`buckets`, `roles`, …).
 */
export type KindResolvedFields = Intersection<{ [K in KindsWith<"resolvedFields">]: FactOf<K, "resolvedFields"> }[KindsWith<"resolvedFields">]> & object;

/** The settings the kinds' tunings set on the branch (fact `resolvedBranch`: `protected`, `compute`, …), each optional: the resolved policy's `branch` beside `parent`. */
export type KindBranchSettings = Intersection<{ [K in KindsWith<"resolvedBranch">]: FactOf<K, "resolvedBranch"> }[KindsWith<"resolvedBranch">]> & object;

/**
 * The fields the kinds add to the live state (fact `liveFields`, each field optional: absent = not
 * read), under the names plans have always used (`buckets`, `functions`, …).
 */
export type KindLiveFields = Intersection<{ [K in KindsWith<"liveFields">]: FactOf<K, "liveFields"> }[KindsWith<"liveFields">]> & object;

/**
 * What the read of kind `K` contributes to the live state: its fields (fact `liveFields`) and its
 * own slice under `kinds` (fact `live`), each left out when not read.
 */
export type LiveContributionOf<K extends ResourceKind> = ([FactOf<K, "liveFields">] extends [never] ? unknown : FactOf<K, "liveFields">) &
  ([FactOf<K, "live">] extends [never] ? unknown : { kinds?: { [P in K]?: FactOf<K, "live"> } });

/** Part `P` of kind `K`'s fact `policy`, or `never`. */
type PolicyFactOf<K extends ResourceKind, P extends string> = [FactOf<K, "policy">] extends [never] ? never : FactOf<K, "policy"> extends { [Q in P]: infer V } ? V : never;

/** The kinds whose fact `policy` holds part `P`. */
type KindsWithPolicy<P extends string> = { [K in ResourceKind]: [PolicyFactOf<K, P>] extends [never] ? never : K }[ResourceKind];

/**
 * The top-level keys the kinds add to a policy (fact `policy.keys`: their authoring types, each
 * optional), part of the public `PolicyConfig`.
 */
export type KindPolicyKeys = Intersection<{ [K in KindsWithPolicy<"keys">]: PolicyFactOf<K, "keys"> }[KindsWithPolicy<"keys">]> & object;

/** The deprecated homes under `preview` of the kinds' keys (fact `policy.preview`), part of the public `PreviewDef`. */
export type KindPreviewKeys = Intersection<{ [K in KindsWithPolicy<"preview">]: PolicyFactOf<K, "preview"> }[KindsWithPolicy<"preview">]> & object;

/** The kinds' flags of `prune` (fact `policy.prune`: `{ <flag>?: boolean }`), part of the public `PruneDef`. */
export type KindPruneFlags = Intersection<{ [K in KindsWithPolicy<"prune">]: PolicyFactOf<K, "prune"> }[KindsWithPolicy<"prune">]> & object;
