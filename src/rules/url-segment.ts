/**
 * Names that become one path segment of a URL (bucket names, object keys' buckets, slugs) must
 * reach the server as written. A WHATWG URL parser rewrites some segments before the request is
 * sent: `.` and `..` (also percent-encoded, `%2e`, `.%2E`, …) are removed or climb a level, so
 * `DELETE …/buckets/..` would address the branch itself, and an unpaired surrogate becomes
 * U+FFFD. The policy, the client and the emulator refuse such names with this one rule.
 * Leaf module: no imports.
 */

/** Why a value cannot be one URL path segment. */
export type UrlSegmentIssue = "empty" | "dot-segment" | "lone-surrogate";

/** Human-readable explanation of each {@link UrlSegmentIssue}. */
export const URL_SEGMENT_ISSUE_MESSAGES: Readonly<Record<UrlSegmentIssue, string>> = Object.freeze({
  empty: "is empty",
  "dot-segment": "is a dot segment (. or .., also percent-encoded) that a URL parser removes or resolves to the parent path",
  "lone-surrogate": "contains an unpaired UTF-16 surrogate, which a URL parser replaces with U+FFFD",
});

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks a value used as one URL path segment; `null` when the server receives it unchanged. */
export function urlSegmentIssue(value: string): UrlSegmentIssue | null {
  if (value.length === 0) return "empty";
  if (DOT_SEGMENT.test(value)) return "dot-segment";
  if (LONE_SURROGATE.test(value)) return "lone-surrogate";
  return null;
}
