/**
 * A reader for the archives nearly every upload is: regular files, each stored or deflated, with
 * plain ASCII relative names, and no directory entries, extra fields, comments, encryption, ZIP64 or
 * prepended bytes (what the bundler writes). For such an archive it gives what inspecting it with
 * jszip gives (its file names, each file's length once decompressed) without jszip's asynchronous
 * workers and JavaScript inflate, which cost the emulator 125-340 µs of CPU an upload. Anything
 * else gives `undefined`, and the caller inspects the archive with jszip as before, so every other
 * archive keeps jszip's outcome and messages. Each entry's central name must be its local name,
 * byte for byte, so an archive read here is one the directory reading (`archive-directory.ts`)
 * reads and refuses nothing of: one end record at the end, no bytes before the archive, no extra
 * field in the central directory, names that no zip-slip rule refuses, each once, within the entry limit. The upload's
 * inspection therefore reads the directory of such an archive only here. Pure; it depends on
 * Node's zlib and the shared ZIP record layout.
 */
import { inflateRawSync } from "node:zlib";
import { ZIP_RECORDS, ZIP_FLAGS, ZIP_METHODS } from "../../rules/zip-entries.js";

/** A plain archive's files: names as jszip reports them, and their total decompressed length. */
export interface PlainArchive {
  names: string[];
  unzippedBytes: number;
}

/** Limits the caller judges the archive by; past either, jszip's path reports it. */
export interface PlainArchiveLimits {
  zipEntries: number;
  unzippedBytes: number;
}

const { signature: END_SIGNATURE, length: END_LENGTH } = ZIP_RECORDS.end;
const { signature: CENTRAL_SIGNATURE, length: CENTRAL_LENGTH } = ZIP_RECORDS.central;
const { signature: LOCAL_SIGNATURE, length: LOCAL_LENGTH } = ZIP_RECORDS.local;
const DOS_DIRECTORY_ATTRIBUTE = 0x0010;
const MADE_BY_DOS = 0;
const MADE_BY_UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
/** jszip reads 32-bit fields as signed numbers: a size at or past 2^31 is not plain. */
const SIGNED_32_LIMIT = 0x80000000;
/**
 * Decompressed bytes inflated here in one turn of the event loop, at most; a larger archive goes
 * through jszip, whose inflate yields between chunks, so other requests are not held up behind it.
 */
const SYNC_INFLATE_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

/**
 * Names jszip keeps as written: segments of letters, digits and `._@+~-`, none empty, `.` or
 * `..`, no leading or trailing `/` (so no directory entry, nothing its path resolution changes,
 * nothing the deployment route's zip-slip rule refuses).
 */
const PLAIN_NAME = /^[A-Za-z0-9._@+~-]+(?:\/[A-Za-z0-9._@+~-]+)*$/;

function isPlainName(name: string): boolean {
  if (!PLAIN_NAME.test(name) || name === "__proto__") return false;
  for (const segment of name.split("/")) if (segment === "." || segment === "..") return false;
  return true;
}

/** Whether `name` is the `length` bytes of `bytes` from `at`. */
function sameBytes(name: Uint8Array, bytes: Uint8Array, at: number, length: number): boolean {
  if (name.byteLength !== length || at + length > bytes.byteLength) return false;
  for (let i = 0; i < length; i++) if (name[i] !== bytes[at + i]) return false;
  return true;
}

/** An entry's attributes mark a regular file for every reading jszip makes of them. */
function isRegularFile(madeBy: number, external: number): boolean {
  if ((external & DOS_DIRECTORY_ATTRIBUTE) !== 0) return false;
  const platform = madeBy >> 8;
  if (platform === MADE_BY_DOS) return true;
  if (platform !== MADE_BY_UNIX) return false;
  const type = (external >>> 16) & S_IFMT;
  return type === 0 || type === S_IFREG;
}

/** The entry's data decompressed, its length checked against the header; `undefined` when anything is off. */
function decompressedLength(data: Uint8Array, method: number, size: number): number | undefined {
  if (method === ZIP_METHODS.stored) return data.byteLength === size ? size : undefined;
  try {
    const { buffer, engine } = inflateRawSync(data, { maxOutputLength: size + 1, info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return buffer.byteLength === size && engine.bytesWritten === data.byteLength ? size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads `bytes` as a plain archive within `limits`; `undefined` when it is anything else (see the
 * module comment), over either limit or 1 MiB decompressed, or damaged in any way.
 */
export function readPlainArchive(bytes: Uint8Array, limits: PlainArchiveLimits): PlainArchive | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength - END_LENGTH;
  if (end < 0 || view.getUint32(end, true) !== END_SIGNATURE) return undefined;
  // jszip takes the last end-of-central-directory signature in the data: none may start inside this record.
  for (let i = end + 1; i + 4 <= bytes.byteLength; i++) if (view.getUint32(i, true) === END_SIGNATURE) return undefined;
  const entries = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  const plainEnd =
    view.getUint16(end + 4, true) === 0 && view.getUint16(end + 6, true) === 0 && view.getUint16(end + 8, true) === entries &&
    entries > 0 && entries < 0xffff && entries <= limits.zipEntries && view.getUint16(end + 20, true) === 0 && directoryOffset + directorySize === end;
  if (!plainEnd) return undefined;

  const names: string[] = [];
  const seen = new Set<string>();
  let declaredBytes = 0;
  let unzippedBytes = 0;
  let at = directoryOffset;
  for (let k = 0; k < entries; k++) {
    if (at + CENTRAL_LENGTH > end || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return undefined;
    const madeBy = view.getUint16(at + 4, true);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const centralNameLength = view.getUint16(at + 28, true);
    const plainEntry =
      (flags & ZIP_FLAGS.encrypted) === 0 && (method === ZIP_METHODS.stored || method === ZIP_METHODS.deflated) && view.getUint16(at + 30, true) === 0 &&
      view.getUint16(at + 32, true) === 0 && view.getUint16(at + 34, true) === 0 && isRegularFile(madeBy, view.getUint32(at + 38, true)) &&
      compressedSize < SIGNED_32_LIMIT && size < SIGNED_32_LIMIT;
    if (!plainEntry) return undefined;
    declaredBytes += size;
    if (declaredBytes > limits.unzippedBytes || declaredBytes > SYNC_INFLATE_BYTES) return undefined;

    // jszip names an entry by its local header (the central one may differ) and reads its data after it.
    const local = view.getUint32(at + 42, true);
    if (local + LOCAL_LENGTH > directoryOffset || view.getUint32(local, true) !== LOCAL_SIGNATURE) return undefined;
    const nameLength = view.getUint16(local + 26, true);
    const dataStart = local + LOCAL_LENGTH + nameLength + view.getUint16(local + 28, true);
    if (dataStart + compressedSize > directoryOffset) return undefined;
    const localName = bytes.subarray(local + LOCAL_LENGTH, local + LOCAL_LENGTH + nameLength);
    // An entry with two names is left to the directory reading, which refuses it.
    if (!sameBytes(localName, bytes, at + CENTRAL_LENGTH, centralNameLength)) return undefined;
    const name = decoder.decode(localName);
    if (!isPlainName(name) || seen.has(name)) return undefined;
    const length = decompressedLength(bytes.subarray(dataStart, dataStart + compressedSize), method, size);
    if (length === undefined) return undefined;
    seen.add(name);
    names.push(name);
    unzippedBytes += length;
    at += CENTRAL_LENGTH + centralNameLength;
  }
  return at === end ? { names, unzippedBytes } : undefined;
}
