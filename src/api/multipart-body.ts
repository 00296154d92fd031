/**
 * A `multipart/form-data` body encoded here, byte for byte (RFC 7578), so a deployment upload
 * does not depend on how a `fetch` implementation serialises `FormData` (undici's `fetch`
 * sends Node's global `FormData` as text, for instance).
 */
import { randomBytes } from "node:crypto";

/** One part of a multipart body: a text field, or a file with a name and a content type. */
export type MultipartPart =
  | { kind: "text"; name: string; value: string }
  | { kind: "file"; name: string; filename: string; contentType: string; bytes: Uint8Array };

/** An encoded body and the `Content-Type` header (with its boundary) that goes with it. */
export interface MultipartBody {
  contentType: string;
  bytes: Uint8Array;
}

const CRLF = "\r\n";
const encoder = new TextEncoder();

/** Escapes a field or file name for a quoted `Content-Disposition` parameter. */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22")}"`;
}

function partHeader(part: MultipartPart): string {
  if (part.kind === "text") return `Content-Disposition: form-data; name=${quoted(part.name)}${CRLF}${CRLF}`;
  return (
    `Content-Disposition: form-data; name=${quoted(part.name)}; filename=${quoted(part.filename)}${CRLF}` +
    `Content-Type: ${part.contentType}${CRLF}${CRLF}`
  );
}

function contentOf(part: MultipartPart): Uint8Array {
  return part.kind === "text" ? encoder.encode(part.value) : part.bytes;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return true;
  }
  return false;
}

/** A boundary of 32 random hex digits after a fixed prefix. */
export function randomBoundary(): string {
  return `----svc-config-${randomBytes(16).toString("hex")}`;
}

/**
 * Encodes `parts` in order. `newBoundary` is called again in the (astronomically unlikely)
 * case that a part's content contains the boundary.
 */
export function encodeMultipart(parts: readonly MultipartPart[], newBoundary: () => string = randomBoundary): MultipartBody {
  let boundary = newBoundary();
  while (parts.some((p) => contains(contentOf(p), encoder.encode(`--${boundary}`)))) boundary = newBoundary();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}${CRLF}${partHeader(part)}`), contentOf(part), encoder.encode(CRLF));
  }
  chunks.push(encoder.encode(`--${boundary}--${CRLF}`));
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes };
}
