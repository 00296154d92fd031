/**
 * A `multipart/form-data` body encoded here, byte for byte (RFC 7578), so a deployment upload
 * does not depend on how a `fetch` implementation serialises `FormData` (undici's `fetch`
 * sends Node's global `FormData` as text, for instance).
 */
import { randomUUID } from "node:crypto";

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

/** A part's content as bytes: a view of a file's bytes (no copy), a text's UTF-8. */
function contentOf(part: MultipartPart): Buffer {
  return part.kind === "text" ? Buffer.from(part.value, "utf8") : Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength);
}

/**
 * A boundary of 32 hex digits after a fixed prefix: a random UUID's (122 random bits), taken from
 * the pool `crypto.randomUUID` fills in bulk rather than by a call for random bytes per upload.
 */
export function randomBoundary(): string {
  return `----svc-config-${randomUUID().replaceAll("-", "")}`;
}

/**
 * Encodes `parts` in order. `newBoundary` is called again in the (astronomically unlikely)
 * case that a part's content contains the boundary.
 */
export function encodeMultipart(parts: readonly MultipartPart[], newBoundary: () => string = randomBoundary): MultipartBody {
  const contents = parts.map(contentOf);
  let boundary = newBoundary();
  while (contents.some((content) => content.includes(`--${boundary}`, 0, "utf8"))) boundary = newBoundary();
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    chunks.push(Buffer.from(`--${boundary}${CRLF}${partHeader(part)}`, "utf8"), contents[i] as Buffer, Buffer.from(CRLF, "latin1"));
  });
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`, "utf8"));
  // Its own memory, not a slice of Node's shared pool: the body is freed with its request.
  const bytes = Buffer.allocUnsafeSlow(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(bytes, offset);
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes };
}
