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

const digests = new WeakMap<PushResult, ChangeDigests>();

/** Records the digests of the changes `result` was built from (a result built by this process). */
export function recordDigests(result: PushResult, changeDigests: ChangeDigests): void {
  digests.set(result, changeDigests);
}

/** The digests recorded for a result built by this process, if any. */
export function recordedDigests(result: PushResult): ChangeDigests | undefined {
  return digests.get(result);
}
