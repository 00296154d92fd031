/**
 * The digests of a plan's internal changes, kept beside each result this process built, so a
 * saved plan can commit to what its views leave out. Light on purpose: `toSavedPlan` needs it
 * without loading the engine or the kinds.
 */
import type { PushResult } from "../model/plan.js";

/** The digests of a plan's internal changes, which hold what no view shows (env values as hardened tags). */
export interface ChangeDigests {
  /** SHA-256 of the whole canonical internal change list. */
  changesDigest: string;
  /** SHA-256 of each internal change, by change id: names the change whose hidden part differs. */
  changeDigests: Record<string, string>;
}

const digests = new WeakMap<PushResult, ChangeDigests | (() => ChangeDigests)>();

/**
 * Records the digests of the changes `result` was built from (a result built by this process):
 * the digests, or a function that computes them, called the first time they are asked for (its
 * answer is then kept). A dry run's result records a function: the digests are needed only by a
 * saved plan and by the apply's result, and hashing a plan's every change before it is shown kept
 * the CLI's apply from its re-read.
 */
export function recordDigests(result: PushResult, changeDigests: ChangeDigests | (() => ChangeDigests)): void {
  digests.set(result, changeDigests);
}

/** The digests recorded for a result built by this process, if any (computed now if they were recorded as a function). */
export function recordedDigests(result: PushResult): ChangeDigests | undefined {
  const recorded = digests.get(result);
  if (typeof recorded !== "function") return recorded;
  const computed = recorded();
  digests.set(result, computed);
  return computed;
}
