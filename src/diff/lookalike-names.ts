/**
 * Prune never deletes a resource the policy names in a form that reads the same: a live name
 * whose confusable skeleton equals a declared one's (another Unicode form, or look-alike
 * characters such as Cyrillic `а` for Latin `a`: `rules/names.ts`) is a blocking conflict
 * instead of a delete, since deleting it and creating the declared spelling would swap one
 * resource, and its data, for its lookalike.
 */
import type { PrunedKind } from "../kinds/index.js";
import type { ConflictReport } from "../model/plan.js";
import { isLookalikeName } from "../rules/names.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

/** The `NAME_LOOKALIKE` conflict for live `name` when a declared name is its lookalike, else `undefined`. */
export function lookalikeConflict(kind: PrunedKind, name: string, declared: Iterable<string>): ConflictReport | undefined {
  for (const candidate of declared) {
    if (!isLookalikeName(candidate, name)) continue;
    return {
      kind, identifier: name, field: "name", current: name, desired: candidate, blocking: true, code: "NAME_LOOKALIKE",
      reason:
        `${kind} ${quote(name)} on the branch and ${quote(candidate)} in the policy read as one name (the same name in different Unicode forms, or look-alike characters); ` +
        `prune would delete the live one and create its lookalike: spell the ${kind} in the policy exactly as it exists, or delete it by hand`,
    };
  }
  return undefined;
}

/** A name as JSON with every unsafe and non-ASCII character escaped, so the two spellings differ visibly. */
function quote(name: string): string {
  return escapeUnsafeText(JSON.stringify(name)).replace(/[^\x20-\x7e]/gu, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`);
}
