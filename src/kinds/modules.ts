/**
 * Every kind's whole module: the registry's list (`kinds/list.ts`) joined to each kind's stages,
 * which this module loads when it is first imported (the engine's operations import it; declaring
 * and resolving a policy do not), and the stages bound to them: the diff, the handlers, the
 * digests and the reads.
 */
import type { ChangeHandlers, ExpectedWaits } from "../apply/execution-context.js";
import { diffKinds } from "../diff/diff-state.js";
import type { DiffOptions, DiffResult } from "../diff/plan-types.js";
import type { AnyKindRead } from "../inspect/read-live-state.js";
import { type ReadNeeds, readNeedsOf } from "../inspect/read-needs.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { DigestViews } from "../model/planned-change.js";
import type { ResourceKind } from "./index.js";
import { type AnyKindLight, KIND_LIST } from "./list.js";
import type { KindModule } from "./module.js";

/** The module of some kind. */
export type AnyKindModule = { [K in ResourceKind]: KindModule<K> }[ResourceKind];

/**
 * A light module with its stages. Each light module's `stages` loads its own kind's stages (its
 * type says so, per kind); the compiler does not follow that pairing through the list's union.
 */
async function withStages(kind: AnyKindLight): Promise<AnyKindModule> {
  return { ...kind, ...(await kind.stages()) } as AnyKindModule;
}

/** Every kind's module, in rank order. */
export const KIND_MODULES: readonly AnyKindModule[] = await Promise.all(KIND_LIST.map(withStages));

/** The handler of every operation, from the kinds' modules (each operation belongs to one kind). */
export const KIND_HANDLERS: ChangeHandlers = mergedOf<ChangeHandlers>(KIND_MODULES, (kind) => kind.handlers);

/** What every operation that waits typically waits for, from the kinds' modules. */
export const KIND_EXPECTED_WAITS: ExpectedWaits = mergedOf<ExpectedWaits>(KIND_MODULES, (kind) => kind.expectedWaits);

/** The digest view of every operation that has one, from the kinds' modules. */
export const KIND_DIGESTS: DigestViews = mergedOf<DigestViews>(KIND_MODULES, (kind) => kind.digests);

/** One record of every kind's entries of `part` (each operation belongs to one kind, so none overwrites another). */
function mergedOf<T extends object>(kinds: readonly AnyKindModule[], part: (kind: AnyKindModule) => Partial<T> | undefined): T {
  const merged = {} as T;
  for (const kind of kinds) Object.assign(merged, part(kind));
  return merged;
}

/** The pure diff of every kind of the registry (see {@link diffKinds}). */
export function diffState(desired: ResolvedPolicy, live: LiveState, options: DiffOptions): DiffResult {
  return diffKinds(KIND_MODULES, desired, live, options);
}

/** The reads of the kinds that have a part of the live state, in rank order, each with its kind's name. */
export const KIND_READS: readonly AnyKindRead[] = KIND_MODULES.flatMap((kind): AnyKindRead[] => (kind.read === undefined ? [] : [{ ...kind.read, kind: kind.name }]));

/** The read sources the kinds need to plan `policy` (each read once; none for a kind that needs nothing). */
export function readNeedsForPolicy(policy: ResolvedPolicy): ReadNeeds {
  return readNeedsOf(KIND_READS, policy);
}
