/**
 * The kinds' names and their classes, as types every layer may read: derived from the facts each
 * kind folder declares (`KindFacts`, in `registry.ts`). The kinds themselves, in rank order, are
 * the registry's modules (`kinds/modules.ts`). It imports only `registry.ts`.
 */
import type { KindFacts } from "./registry.js";

export type { KindDefinition, KindFacts } from "./registry.js";

/** The resource kinds a plan talks about. */
export type ResourceKind = keyof KindFacts;

/** The kinds that need a platform feature which a branch may lack. */
export type FeatureKind = { [K in ResourceKind]: KindFacts[K] extends { feature: string } ? K : never }[ResourceKind];

/** The kinds prune deletes by name. */
export type PrunedKind = { [K in ResourceKind]: KindFacts[K] extends { prunedByName: true } ? K : never }[ResourceKind];
