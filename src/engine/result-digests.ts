/**
 * The digests of a plan's internal changes, kept beside each result this process built, so a
 * saved plan can commit to what its views leave out. Light on purpose: `toSavedPlan` needs it
 * without loading the engine.
 */
import { sha256Of } from "../diff/canonical-json.js";
import { nameRecord } from "../model/own-record.js";
import type { PushResult } from "../model/plan.js";
import type { PlannedChange } from "../model/planned-change.js";

/** The digests of a plan's internal changes, which hold what no view shows (env values as hardened tags). */
export interface ChangeDigests {
  /** SHA-256 of the whole canonical internal change list. */
  changesDigest: string;
  /** SHA-256 of each internal change, by change id: names the change whose hidden part differs. */
  changeDigests: Record<string, string>;
}

const digests = new WeakMap<PushResult, ChangeDigests>();

/** The digests of `changes` (ops included, so an edited env value shows). */
export function digestsOf(changes: readonly PlannedChange[]): ChangeDigests {
  return {
    changesDigest: sha256Of(changes.map(({ change, op }) => ({ change, op }))),
    changeDigests: nameRecord(changes.map(({ change, op }) => [change.id, sha256Of({ change, op })] as const)),
  };
}

/** Records the digests of the changes `result` was built from (a result built by this process). */
export function recordDigests(result: PushResult, changes: readonly PlannedChange[]): void {
  digests.set(result, digestsOf(changes));
}

/** The digests recorded for a result built by this process, if any. */
export function recordedDigests(result: PushResult): ChangeDigests | undefined {
  return digests.get(result);
}
