/**
 * Which read sources a plan needs: each kind's read says which it needs for the resolved policy
 * (a pure function), and a source is read once however many kinds need it, so a policy that
 * manages little costs few requests.
 */
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { ReadNeeds } from "./read-sources.js";

export type { ReadNeeds } from "./read-sources.js";

/** The database the Data API and auth attach to when the policy names none. */
export const DEFAULT_SERVICE_DATABASE = "neondb";

/** The sources the kinds of `reads` need to plan `policy` (see {@link unionOfNeeds}). */
export function readNeedsOf(reads: readonly { readonly needs?: (policy: ResolvedPolicy) => ReadNeeds }[], policy: ResolvedPolicy): ReadNeeds {
  return unionOfNeeds(reads.map((read) => read.needs?.(policy) ?? {}));
}

/**
 * Every source some of `list` needs, read once: a parameter (such as the Data API's database) from
 * the first that asks for the source (the kinds in rank order).
 */
export function unionOfNeeds(list: readonly ReadNeeds[]): ReadNeeds {
  const needs: ReadNeeds = {};
  for (const own of list) {
    for (const [name, need] of Object.entries(own)) if (need !== undefined && !Object.hasOwn(needs, name)) Object.assign(needs, { [name]: need });
  }
  return needs;
}
