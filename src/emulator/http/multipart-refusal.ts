/**
 * Why a deployment's `multipart/form-data` body cannot be read, in the emulator's own words: the
 * general parser (undici's) refuses a malformed body with one fixed text that names nothing, so the
 * 400 says instead which rule the body breaks first. Pure; never throws; reads only the bytes.
 */

const CRLF = "\r\n";
/** `boundary=` of a Content-Type, quoted or bare. */
const BOUNDARY_PARAMETER = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i;
/** A boundary RFC 2046 allows, quoted in a message only when it looks like one. */
const SHOWABLE_BOUNDARY = /^[A-Za-z0-9'()+_,./:=?-]{1,70}$/;
/** Longest header block looked at: past it a part counts as malformed (no regular expression runs over a long text). */
const MAX_HEADERS = 16 * 1024;

/** Whether a part's header lines hold a `Content-Disposition: form-data` with a `name`, as the general parser requires. */
function namesItself(headerLines: string): boolean {
  if (headerLines.length > MAX_HEADERS) return false;
  return headerLines.split(CRLF).some((line) => {
    const colon = line.indexOf(":");
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== "content-disposition") return false;
    const [kind = "", ...parameters] = line.slice(colon + 1).split(";");
    return kind.trim().toLowerCase() === "form-data" && parameters.some((p) => /^name\*?=/i.test(p.trim()));
  });
}

/**
 * The first rule `body` breaks as the multipart body its `contentType` announces, as a clause for
 * "the multipart body cannot be read (…)". Called only once a parser refused the body.
 */
export function unreadableMultipartReason(body: Uint8Array | undefined, contentType: string): string {
  if (body === undefined) return "the body could not be received whole";
  const match = BOUNDARY_PARAMETER.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? "";
  if (boundary === "") return "its Content-Type names no boundary: send multipart/form-data; boundary=…";
  if (body.byteLength === 0) return "the body is empty";
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`, "latin1");
  const showable = SHOWABLE_BOUNDARY.test(boundary);
  let first = 0;
  while (bytes.toString("latin1", first, first + 2) === CRLF) first += 2;
  if (!bytes.subarray(first, first + delimiter.length).equals(delimiter)) return `it does not start with ${showable ? `the delimiter --${boundary}` : "the boundary its Content-Type names"}`;
  const afterFirst = first + delimiter.length;
  if (bytes[afterFirst] === 0x0a) return "its lines end with LF alone; multipart/form-data needs CRLF line endings";
  const closing = Buffer.from(`${CRLF}--${boundary}--`, "latin1");
  const closingAt = bytes.lastIndexOf(closing);
  if (closingAt === -1 || bytes.subarray(closingAt + closing.length).some((b) => b !== 0x0d && b !== 0x0a)) {
    return `it does not end with the closing delimiter${showable ? ` --${boundary}--` : ": the boundary followed by --"}`;
  }
  // As the general parser does: a part's content ends where the bare boundary next appears.
  const bare = Buffer.from(boundary, "latin1");
  for (let part = 1, at = afterFirst; bytes.toString("latin1", at, at + 2) !== "--"; part++) {
    const next = bytes.indexOf(bare, at);
    const headersEnd = bytes.indexOf(`${CRLF}${CRLF}`, at, "latin1");
    const headers = headersEnd === -1 || headersEnd > next ? "" : bytes.toString("latin1", at, headersEnd + 2);
    if (!headers.startsWith(CRLF) || !namesItself(headers.slice(2, -2))) {
      return `part ${part} is malformed: a part needs a Content-Disposition: form-data; name="…" header and a blank line before its content`;
    }
    if (next - 4 < headersEnd + 4 || bytes.toString("latin1", next - 4, next) !== `${CRLF}--`) {
      return `part ${part}'s content holds the boundary: choose a boundary that no part's content holds`;
    }
    at = next + bare.length;
  }
  return "a part's headers cannot be read: each is one Name: value line ending in CRLF";
}
