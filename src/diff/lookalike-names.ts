/**
 * Prune never deletes a resource the policy names in another form: a live name that equals a
 * declared one after Unicode normalisation (`rules/names.ts`) is a blocking conflict instead of
 * a delete, since deleting it and creating the declared spelling would swap one resource for its
 * lookalike.
 */
import type { ConflictReport } from "../model/plan.js";
import { isLookalikeName } from "../rules/names.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

/** The `NAME_LOOKALIKE` conflict for live `name` when a declared name is its lookalike, else `undefined`. */
export function lookalikeConflict(kind: "bucket" | "trigger", name: string, declared: Iterable<string>): ConflictReport | undefined {
  for (const candidate of declared) {
    if (!isLookalikeName(candidate, name)) continue;
    return {
      kind, identifier: name, field: "name", current: name, desired: candidate, blocking: true, code: "NAME_LOOKALIKE",
      reason:
        `${kind} ${escapeUnsafeText(JSON.stringify(name))} on the branch and ${escapeUnsafeText(JSON.stringify(candidate))} in the policy are the same name in different Unicode forms; ` +
        `prune would delete the live one and create its lookalike: spell the ${kind} in the policy exactly as it exists, or delete it by hand`,
    };
  }
  return undefined;
}
