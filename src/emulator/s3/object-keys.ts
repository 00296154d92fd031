/**
 * The object keys the S3 endpoint accepts: 1 to 1,024 bytes of UTF-8 (S3's limit), no control
 * characters (a newline in a key would forge lines of every listing and log), no unpaired
 * surrogates, and no `.` or `..` segment (a URL parser resolves them, so the key could not be
 * addressed as written). Keys never become file-system paths: bodies are stored by hash.
 */
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "../../rules/url-segment.js";
import { isControlCodePoint } from "../../rules/visible-text.js";

/** S3's maximum key length, in UTF-8 bytes. */
export const MAX_OBJECT_KEY_BYTES = 1024;

/** Why a key is refused, as a phrase (`is longer than 1024 bytes`), or null when it is accepted. */
export function objectKeyIssue(key: string): string | null {
  if (key === "") return "is empty";
  const bytes = Buffer.byteLength(key, "utf8");
  if (bytes > MAX_OBJECT_KEY_BYTES) return `is ${bytes} bytes long (at most ${MAX_OBJECT_KEY_BYTES} bytes of UTF-8)`;
  for (const ch of key) if (isControlCodePoint(ch.codePointAt(0) ?? 0)) return "contains a control character";
  for (const segment of key.split("/")) {
    const issue = segment === "" ? null : urlSegmentIssue(segment);
    if (issue !== null) return `has a segment that ${URL_SEGMENT_ISSUE_MESSAGES[issue]}`;
  }
  return null;
}
