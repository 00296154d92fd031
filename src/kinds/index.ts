/**
 * The registry of resource kinds: the one list every stage reads. A kind's position is its rank
 * (the order the diff visits kinds and the executor's tie-break among ready changes; prune visits
 * them in the reverse order). Adding a kind here makes it a `ResourceKind`: selection, ordering,
 * gating and the plan views take it in, and the compiler refuses the build until every stage
 * table keyed by `ResourceKind` has its entry. It imports only `registry.ts`, so every layer may read it.
 */
import { type KindDefinition, kindRegistry } from "./registry.js";

export type { KindDefinition } from "./registry.js";

/** Every resource kind, in rank order. */
export const KINDS = [
  { name: "branch", scope: "branch" },
  { name: "compute", scope: "branch" },
  { name: "role", scope: "named", prunedByName: true },
  { name: "database", scope: "named", prunedByName: true },
  { name: "auth", scope: "branch" },
  { name: "dataApi", scope: "branch" },
  { name: "bucket", scope: "named", feature: "buckets", prunedByName: true },
  { name: "function", scope: "named", feature: "functions", prunedByName: true },
  { name: "trigger", scope: "named", feature: "triggers", prunedByName: true },
  { name: "domain", scope: "named", feature: "customDomains" },
] as const satisfies readonly KindDefinition[];

type Kind = (typeof KINDS)[number];

/** The resource kinds a plan talks about. */
export type ResourceKind = Kind["name"];

/** The kinds that need a platform feature which a branch may lack. */
export type FeatureKind = Extract<Kind, { feature: string }>["name"];

/** The kinds prune deletes by name. */
export type PrunedKind = Extract<Kind, { prunedByName: true }>["name"];

export const { KIND_NAMES, FEATURE_KINDS, isResourceKind, rankOf, addressOf, identifierAt } = kindRegistry(KINDS);
