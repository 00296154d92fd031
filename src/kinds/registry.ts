/**
 * What a kind registry knows, derived from its list alone: names, ranks, address forms and the
 * kinds needing a platform feature. `kinds/modules.ts` applies it to the one list of kinds (the
 * kinds' modules); tests apply it to a list with a kind of their own to see every stage take it in.
 */

/**
 * The facts of every kind, by name: each kind folder adds its own entry (`declare module
 * "../registry.js"` in its `index.ts`), so the types every layer derives (`ResourceKind`,
 * `FeatureKind`, `PrunedKind`, `OpType`, `ChangeOp`, …) come from the kind's folder. An entry holds
 * `scope` (and `feature`, `prunedByName`) as its module states them at run time, and `operations`:
 * per operation name, `{ op, planned }` (`model/planned-change.ts`). `kinds/modules.ts` refuses a
 * kind without its module and a module without facts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the kind folders (declaration merging).
export interface KindFacts {}

/** What one entry of the registry declares. */
export interface KindDefinition {
  /** The kind as plans name it (`change.kind`, the head of an address). */
  readonly name: string;
  /**
   * `branch`: one per branch, addressed by the kind's name alone (`compute`) and reported under
   * the branch's name; `named`: many per branch, addressed `<kind>.<identifier>` (`bucket.avatars`).
   */
  readonly scope: "branch" | "named";
  /**
   * The listing of the platform's feature this kind needs (`buckets`, `functions`, …): when reading
   * it answers feature-unavailable, a policy that declares the kind gets a blocking conflict.
   */
  readonly feature?: string;
  /** Prune deletes live resources of this kind by name (guarded against look-alike names). */
  readonly prunedByName?: boolean;
}

/** The lookups of a registry whose kinds are named `K`, `F` those needing a platform feature. */
export interface KindRegistry<K extends string, F extends K> {
  /** Kind names in rank order. */
  readonly KIND_NAMES: readonly K[];
  /** The kinds needing a platform feature, keyed by that feature's listing name, in rank order. */
  readonly FEATURE_KINDS: ReadonlyMap<string, F>;
  /** Whether `name` is a registered kind (`__proto__` and `toString` are not). */
  isResourceKind(name: string): name is K;
  /** The rank of `kind`: its position in the list. */
  rankOf(kind: K): number;
  /** The plan address of a resource: the kind alone when branch-scoped (`compute`), else `<kind>.<identifier>`. */
  addressOf(kind: K, identifier: string): string;
}

/** The lookups of `list`, whose position is each kind's rank. */
export function kindRegistry<const L extends readonly KindDefinition[]>(
  list: L,
): KindRegistry<L[number]["name"], Extract<L[number], { feature: string }>["name"]> {
  type K = L[number]["name"];
  type F = Extract<L[number], { feature: string }>["name"];
  const byName = new Map<string, { definition: KindDefinition; rank: number }>(list.map((definition, rank) => [definition.name, { definition, rank }]));
  const branchScoped = (kind: string): boolean => byName.get(kind)?.definition.scope === "branch";
  const needsFeature = (definition: L[number]): definition is Extract<L[number], { feature: string }> => definition.feature !== undefined;
  const features = new Map(list.filter(needsFeature).map((definition): [string, F] => [definition.feature, definition.name]));
  return {
    KIND_NAMES: list.map((k): K => k.name),
    FEATURE_KINDS: features,
    isResourceKind: (name): name is K => byName.has(name),
    rankOf: (kind) => byName.get(kind)?.rank ?? list.length,
    addressOf: (kind, identifier) => (branchScoped(kind) ? kind : `${kind}.${identifier}`),
  };
}
