/**
 * Name rules the policy, the client and the emulator share:
 * names that reach a URL path must arrive unchanged, and no name may hide or reorder text.
 * Leaf module: imports only its sibling rules.
 */
import { unsafeCharacterIssue } from "./visible-text.js";
import { confusableSkeleton } from "./confusables.js";
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "./url-segment.js";

/**
 * Keys JavaScript objects cannot hold as plain data: assigning `__proto__` replaces the object's
 * prototype instead of adding an entry, so a bucket or function of that name would silently
 * vanish from a copied collection (and `prune` would then delete the live resource).
 */
export const RESERVED_KEYS: readonly string[] = Object.freeze(["__proto__"]);

/** Whether `key` is one of {@link RESERVED_KEYS}. */
export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.includes(key);
}

/** The message for a reserved collection key. */
export function reservedKeyIssue(key: string): string {
  return `${JSON.stringify(key)} is a reserved name: a JavaScript object cannot hold it as an entry, so it would be silently dropped; rename it`;
}

/**
 * Checks a resource name of 1–`max` characters: no control, zero-width or bidirectional-override
 * characters. Returns what is wrong (a phrase after "the name …"), or `null` when it is fine.
 */
export function nameIssue(name: string, max: number): string | null {
  if (name.length < 1 || name.length > max) return `must be 1 to ${max} characters long`;
  return unsafeCharacterIssue(name);
}

/** The longest bucket name. */
export const MAX_BUCKET_NAME_LENGTH = 255;

/**
 * The bucket-name rule: 1–255 characters, no `/`, no control, zero-width or
 * bidirectional-override characters, and never a segment a URL parser rewrites (`.`, `..`, their
 * percent-encoded forms), because the name is a path segment of every bucket route. Returns the
 * problem as a phrase, or `null` when the name is valid.
 */
export function bucketNameIssue(name: string): string | null {
  const basic = nameIssue(name, MAX_BUCKET_NAME_LENGTH);
  if (basic !== null) return basic;
  if (name.includes("/")) return 'contains "/"';
  const segment = urlSegmentIssue(name);
  return segment === null ? null : URL_SEGMENT_ISSUE_MESSAGES[segment];
}

/**
 * Whether two different names read as the same name: the same name in another Unicode form
 * (composed `é` vs `e` + combining accent, compatibility forms) or spelled with look-alike
 * characters (Cyrillic `а` for Latin `a`, `rn` for `m`): their confusable skeletons are equal.
 * The platform compares names byte for byte, so such a pair are two resources that read as one.
 */
export function isLookalikeName(a: string, b: string): boolean {
  return a !== b && confusableSkeleton(a) === confusableSkeleton(b);
}
