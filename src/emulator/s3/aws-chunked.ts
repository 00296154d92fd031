/**
 * The `aws-chunked` content encoding of S3 uploads whose payload hash is
 * `STREAMING-UNSIGNED-PAYLOAD-TRAILER` (what the AWS SDK sends for a streamed body): a series of
 * `<hex size>\r\n<bytes>\r\n` chunks ending with a zero-size chunk, then trailer lines
 * (`x-amz-checksum-crc32:…`) and an empty line. Pure.
 */

/** The decoded body and its trailers, or why the framing is broken. */
export type ChunkedBody = { ok: true; bytes: Uint8Array; trailers: Map<string, string> } | { ok: false; message: string };

const CRLF = [13, 10] as const;

function lineEnd(data: Uint8Array, from: number): number {
  for (let i = from; i + 1 < data.length; i++) if (data[i] === CRLF[0] && data[i + 1] === CRLF[1]) return i;
  return -1;
}

/** Decodes an `aws-chunked` body; chunk extensions (`;name=value`) are not accepted (unsigned chunks have none). */
export function decodeAwsChunked(data: Uint8Array): ChunkedBody {
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  const text = (from: number, to: number): string => Buffer.from(data.subarray(from, to)).toString("latin1");
  for (;;) {
    const end = lineEnd(data, at);
    if (end < 0) return { ok: false, message: "a chunk header is not terminated by CRLF" };
    const sizeText = text(at, end);
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return { ok: false, message: `the chunk header "${sizeText.slice(0, 20)}" is not a hexadecimal size (signed chunks are not supported)` };
    const size = Number.parseInt(sizeText, 16);
    at = end + 2;
    if (size === 0) break;
    if (at + size + 2 > data.length || data[at + size] !== CRLF[0] || data[at + size + 1] !== CRLF[1]) return { ok: false, message: "a chunk is shorter than its declared size" };
    parts.push(data.subarray(at, at + size));
    total += size;
    at += size + 2;
  }
  const trailers = new Map<string, string>();
  for (;;) {
    const end = lineEnd(data, at);
    if (end < 0) return { ok: false, message: "the trailer section is not terminated by an empty line" };
    if (end === at) break;
    const line = text(at, end);
    const colon = line.indexOf(":");
    if (colon < 1) return { ok: false, message: "a trailer line is not name:value" };
    trailers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    at = end + 2;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { ok: true, bytes, trailers };
}
