/**
 * A fast reading of a deployment's `multipart/form-data` body in its plain form: the one the
 * platform client sends (`api/multipart-body.ts`) and `fetch` implementations serialise
 * `FormData` to. A body in any other form (leading blank lines, a quoted or unusual boundary,
 * other part headers, encoded names, a part whose text starts with a byte order mark, anything
 * malformed) is not read here: the caller hands it to the general parser (undici's, through
 * Hono's `parseBody`), which decides what it holds or refuses it with its own message. On what it
 * accepts, this reading gives what that parser gives (the last part of a name wins, a part with a
 * `filename` is a file, text is UTF-8), without building a `Response`, a `FormData` and a `File`
 * per part.
 */

/** A part sent with a `filename`: its bytes (a view of the body, not a copy). */
export interface MultipartFile {
  readonly kind: "file";
  readonly bytes: Uint8Array;
}

/** The parts of a body by name, the last of a name winning: text, or a file. */
export type MultipartFields = Map<string, string | MultipartFile>;

/** `multipart/form-data; boundary=…` with a boundary of letters, digits, `-` and `_` only. */
const PLAIN_CONTENT_TYPE = /^multipart\/form-data; boundary=([A-Za-z0-9_-]{1,70})$/;
/** A disposition's value, as the general parser compares it (case matters): a name, and a file's name, of printable ASCII without `"` or `%`. */
const DISPOSITION = /^form-data; name="([\x20\x21\x23\x24\x26-\x7e]*)"(?:; filename="([\x20\x21\x23\x24\x26-\x7e]*)")?$/;
/** A part's media type: printable ASCII. */
const PART_TYPE = /^[\x20-\x7e]*$/;

const CR = 13;
const LF = 10;
const CRLF = Buffer.from("\r\n", "latin1");
const decoder = new TextDecoder();

/** Whether `input` holds `needle` at `at` (compared natively: nothing is built). */
function holdsAt(input: Buffer, needle: Buffer, at: number): boolean {
  return at >= 0 && at + needle.length <= input.length && input.compare(needle, 0, needle.length, at, at + needle.length) === 0;
}

/**
 * The parts of `body` sent with `contentType`, or `undefined` when the body is not in the plain
 * form this reads (the general parser then reads it). Never throws.
 */
export function readPlainMultipart(body: Uint8Array, contentType: string): MultipartFields | undefined {
  const bare = PLAIN_CONTENT_TYPE.exec(contentType)?.[1];
  if (bare === undefined) return undefined;
  // Compared and searched for as bytes: a string needle would be encoded again at every search.
  const delimiter = Buffer.from(`--${bare}`, "latin1");
  const bareBytes = delimiter.subarray(2);
  let end = body.length;
  // Trailing line breaks are ignored, as the general parser ignores them.
  while (end >= 2 && body[end - 1] === LF && body[end - 2] === CR) end -= 2;
  const input = Buffer.from(body.buffer, body.byteOffset, end);
  const fields: MultipartFields = new Map();
  let at = 0;
  for (;;) {
    if (!holdsAt(input, delimiter, at)) return undefined;
    at += delimiter.length;
    if (at === input.length - 2 && input[at] === 0x2d && input[at + 1] === 0x2d) return fields;
    if (input[at] !== CR || input[at + 1] !== LF) return undefined;
    at += 2;
    const part = readPartHeaders(input, at);
    if (part === undefined) return undefined;
    at = part.bodyStart;
    // The general parser ends a part's content where the bare boundary first appears after it.
    const next = input.indexOf(bareBytes, at);
    if (next === -1 || next - 4 < at) return undefined;
    if (input[next - 4] !== CR || input[next - 3] !== LF || input[next - 2] !== 0x2d || input[next - 1] !== 0x2d) return undefined;
    const content = input.subarray(at, next - 4);
    if (part.filename !== undefined) fields.set(part.name, { kind: "file", bytes: content });
    else {
      // A leading byte order mark is decoded differently by the general parser: left to it.
      if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) return undefined;
      fields.set(part.name, decoder.decode(content));
    }
    at = next - 2;
  }
}

/** A part's headers from `at`: its name, its file name if any, and where its content starts. */
function readPartHeaders(input: Buffer, from: number): { name: string; filename: string | undefined; bodyStart: number } | undefined {
  let at = from;
  let disposition: { name: string; filename: string | undefined } | undefined;
  let typed = false;
  for (;;) {
    const lineEnd = input.indexOf(CRLF, at);
    if (lineEnd === -1) return undefined;
    if (lineEnd === at) break;
    const line = input.toString("latin1", at, lineEnd);
    const colon = line.indexOf(": ");
    // A header's name is compared without case, as the general parser compares it; its value with case.
    const header = colon === -1 ? "" : line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 2);
    const match = header === "content-disposition" && disposition === undefined ? DISPOSITION.exec(value) : null;
    if (match !== null) disposition = { name: match[1] ?? "", filename: match[2] };
    else if (header === "content-type" && !typed && PART_TYPE.test(value)) typed = true;
    else return undefined;
    at = lineEnd + 2;
  }
  if (disposition === undefined) return undefined;
  return { ...disposition, bodyStart: at + 2 };
}
