/**
 * Which read sources a plan needs: each kind's read says which it needs for the resolved policy
 * (a pure function), and a source is read once however many kinds need it, so a policy that
 * manages little costs few requests.
 */
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { ReadNeeds } from "./read-sources.js";

export type { ReadNeeds } from "./read-sources.js";

/** The sources the kinds of `reads` need to plan `policy` (see {@link unionOfNeeds}). */
export function readNeedsOf(reads: readonly { readonly kind: string; readonly needs?: (policy: ResolvedPolicy) => ReadNeeds }[], policy: ResolvedPolicy): ReadNeeds {
  return unionOfNeeds(reads.map((read) => ({ kind: read.kind, needs: read.needs?.(policy) ?? {} })));
}

/** The sources one kind needs, with the kind's name. */
export interface KindNeeds {
  readonly kind: string;
  readonly needs: ReadNeeds;
}

/**
 * Every source some of `list` needs, read once. Kinds asking a source with the same parameter share
 * its read; lists of items (the delete guards' bucket or database names) are merged, each item once
 * in the order first asked. A source reads one parameter per plan, so two kinds asking it with
 * different ones (two Data API databases) is a programming error, thrown naming both kinds.
 */
export function unionOfNeeds(list: readonly KindNeeds[]): ReadNeeds {
  const needs = new Map<string, { kind: string; need: unknown }>();
  for (const { kind, needs: own } of list) {
    for (const [name, need] of Object.entries(own)) {
      if (need === undefined) continue;
      const held = needs.get(name);
      needs.set(name, held === undefined ? { kind, need } : { kind: held.kind, need: mergedNeed(name, held, { kind, need }) });
    }
  }
  return Object.fromEntries([...needs].map(([name, { need }]) => [name, need])) as ReadNeeds;
}

function mergedNeed(source: string, held: { kind: string; need: unknown }, asked: { kind: string; need: unknown }): unknown {
  if (held.need === asked.need) return held.need;
  if (Array.isArray(held.need) && Array.isArray(asked.need)) return [...new Set([...held.need, ...asked.need])];
  throw new Error(
    `kinds ${held.kind} and ${asked.kind} need the read source "${source}" with different parameters (${JSON.stringify(held.need)} and ${JSON.stringify(asked.need)}), and a source is read once per plan: make the two kinds ask for the same one, or add a source`,
  );
}
