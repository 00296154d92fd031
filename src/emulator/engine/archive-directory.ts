/**
 * The names an archive gives each entry, read from the bytes as written, before jszip (which names
 * an entry by its local header, keeps one of two entries of the same name and strips `../` from
 * directory names) or the plain reading sees it. Extractors disagree on which name they use: Info-ZIP
 * and Python take the central directory's, jszip the local header's, or an Info-ZIP Unicode Path
 * field. An archive is accepted only when every name a reader could take is the same, each name
 * appears once, and the number of records is within the limit; otherwise it is refused naming the
 * entry. Records are found as jszip finds them (the last end record; records read while their
 * signature follows; bytes before the archive allowed), so both read the same entries.
 * Pure: no I/O, no jszip.
 */
import { crc32 } from "node:zlib";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { ZIP_ENTRY_NAME_ISSUE_MESSAGES, ZIP_RECORDS, zipSlipIssue, ZIP_FLAGS, ZIP_METHODS, ZIP_UNICODE_PATH_FIELD } from "../../rules/zip-entries.js";

/** One record of the central directory and the local header it points at. */
export interface DirectoryEntry {
  /** The central directory's name, decoded as UTF-8 (as jszip decodes names). */
  name: string;
  /** The local header's name, decoded the same way. */
  localName: string;
  /** Whether the two names are the same bytes. */
  sameNames: boolean;
  /** The name of an Info-ZIP Unicode Path field jszip would take instead, if any. */
  unicodePath: string | undefined;
}

/** What {@link readArchiveDirectory} found: the entries, or why the archive is not a readable ZIP (a sentence). */
export type ArchiveDirectory = { kind: "read"; entries: DirectoryEntry[] } | { kind: "unreadable"; reason: string };

/** Why an archive is refused at upload: `unsafe` is 422, `too-large` is 413. */
export interface DirectoryRefusal {
  kind: "unsafe" | "too-large";
  message: string;
}

const { signature: END_SIGNATURE, length: END_LENGTH } = ZIP_RECORDS.end;
const { signature: CENTRAL_SIGNATURE, length: CENTRAL_LENGTH } = ZIP_RECORDS.central;
const { signature: LOCAL_SIGNATURE, length: LOCAL_LENGTH } = ZIP_RECORDS.local;
const ZIP64_MARK_16 = 0xffff;
const ZIP64_MARK_32 = 0xffffffff;
/** How much of a name a message shows. */
const SHOWN = 200;

const decoder = new TextDecoder();

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A name as a message shows it: quoted, escaped, cut. */
export function shownName(name: string): string {
  return `"${escapeUnsafeText(name.length > SHOWN ? `${name.slice(0, SHOWN)}…` : name)}"`;
}

/** The build error of an archive that cannot be opened or decompressed. */
export function notValidZip(reason: string): string {
  return `archive is not a valid ZIP file: ${reason}`;
}

/** Why jszip could not open an archive whose records were read: in our words, never jszip's. */
export const RECORDS_UNREADABLE = "its records cannot be read (damaged headers or data)";

/** Why an entry could not be decompressed: in our words, never jszip's. */
export function entryUndecompressable(name: string): string {
  return `entry ${shownName(name)} cannot be decompressed: its data is damaged or is not the size its headers declare`;
}

/** The Unicode Path field jszip would take as the name (version 1, the CRC of the header's name bytes). */
function unicodePathOf(view: DataView, bytes: Uint8Array, from: number, to: number, headerName: Uint8Array): string | undefined {
  let at = from;
  // jszip reads fields while more than four bytes are left, and a later field of an id replaces an earlier one.
  let found: string | undefined;
  while (at + 4 < to) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    const start = at + 4;
    if (id === ZIP_UNICODE_PATH_FIELD) {
      found = undefined;
      if (length >= 5 && start + length <= bytes.byteLength && bytes[start] === 1 && view.getUint32(start + 1, true) === crc32(headerName)) {
        found = decoder.decode(bytes.subarray(start + 5, start + length));
      }
    }
    at = start + length;
  }
  return found;
}

/**
 * Reads every record of the central directory and the name in the local header it points at.
 * `unreadable` (with the reason, in our words) for what no reader can take as a ZIP: no end
 * record, a ZIP64 archive (the archive limits never need one), records or headers outside the
 * bytes, an encrypted entry or a compression method other than stored and deflate.
 */
export function readArchiveDirectory(bytes: Uint8Array): ArchiveDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.byteLength - 4; i >= 0; i--) {
    if (view.getUint32(i, true) === END_SIGNATURE) {
      end = i;
      break;
    }
  }
  if (end < 0) return { kind: "unreadable", reason: "it has no end of central directory record (is it a ZIP file?)" };
  if (end + END_LENGTH > bytes.byteLength) return { kind: "unreadable", reason: "its end of central directory record is cut short" };
  const records = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if ([4, 6, 8, 10].some((field) => view.getUint16(end + field, true) === ZIP64_MARK_16) || size === ZIP64_MARK_32 || offset === ZIP64_MARK_32) {
    return { kind: "unreadable", reason: "it is a ZIP64 archive; write a standard ZIP (the archive limits never need ZIP64)" };
  }
  // Bytes before the archive (a self-extracting stub) shift every offset, as jszip allows.
  const shift = end - (offset + size);
  if (shift < 0) return { kind: "unreadable", reason: `its central directory is ${-shift} bytes longer than the space before the end record` };

  const entries: DirectoryEntry[] = [];
  let at = offset + shift;
  while (at + 4 <= bytes.byteLength && view.getUint32(at, true) === CENTRAL_SIGNATURE) {
    if (at + CENTRAL_LENGTH > bytes.byteLength) return { kind: "unreadable", reason: `central directory record ${entries.length + 1} is cut short` };
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true) + shift;
    const nameStart = at + CENTRAL_LENGTH;
    const next = nameStart + nameLength + extraLength + commentLength;
    if (next > bytes.byteLength) return { kind: "unreadable", reason: `central directory record ${entries.length + 1} is cut short` };
    const nameBytes = bytes.subarray(nameStart, nameStart + nameLength);
    const name = decoder.decode(nameBytes);
    if ((flags & ZIP_FLAGS.encrypted) !== 0) return { kind: "unreadable", reason: `entry ${shownName(name)} is encrypted; archives must not be` };
    if (method !== ZIP_METHODS.stored && method !== ZIP_METHODS.deflated) return { kind: "unreadable", reason: `entry ${shownName(name)} uses compression method ${method}; use stored (0) or deflate (8)` };
    if (local + LOCAL_LENGTH > bytes.byteLength || view.getUint32(local, true) !== LOCAL_SIGNATURE) {
      return { kind: "unreadable", reason: `entry ${shownName(name)} has no local header where the central directory points` };
    }
    const localNameLength = view.getUint16(local + 26, true);
    if (local + LOCAL_LENGTH + localNameLength > bytes.byteLength) return { kind: "unreadable", reason: `the local header of entry ${shownName(name)} is cut short` };
    const localNameBytes = bytes.subarray(local + LOCAL_LENGTH, local + LOCAL_LENGTH + localNameLength);
    // jszip takes the Unicode Path field only for a name not flagged UTF-8, checked against the local name's CRC.
    const unicodePath = (flags & ZIP_FLAGS.utf8Name) === 0 ? unicodePathOf(view, bytes, nameStart + nameLength, nameStart + nameLength + extraLength, localNameBytes) : undefined;
    entries.push({ name, localName: decoder.decode(localNameBytes), sameNames: bytesEqual(nameBytes, localNameBytes), unicodePath });
    at = next;
  }
  if (entries.length === 0 && records !== 0) return { kind: "unreadable", reason: `its end record announces ${records} entries and the central directory holds none` };
  return { kind: "read", entries };
}

/**
 * The first reason to refuse an archive whose directory was read: a central name and a local name
 * that differ, a Unicode Path field naming another path, a raw name the zip-slip rule refuses
 * (directory names too), a name given twice (a trailing `/` ignored), then more records than
 * `maxEntries`. `null` when none applies.
 */
export function directoryRefusal(entries: readonly DirectoryEntry[], maxEntries: number): DirectoryRefusal | null {
  for (const entry of entries) {
    if (!entry.sameNames) {
      return { kind: "unsafe", message: `archive entry ${shownName(entry.name)} is named ${shownName(entry.localName)} in its local header; an entry must have one name: rebuild the archive` };
    }
    if (entry.unicodePath !== undefined && entry.unicodePath !== entry.name) {
      return { kind: "unsafe", message: `archive entry ${shownName(entry.name)} carries a Unicode Path field naming ${shownName(entry.unicodePath)}; an entry must have one name: rebuild the archive` };
    }
    const issue = zipSlipIssue(entry.name);
    if (issue !== null) return { kind: "unsafe", message: `archive entry ${shownName(entry.name)} is unsafe: ${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]}; rebuild the archive with relative paths` };
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    const key = entry.name.endsWith("/") ? entry.name.slice(0, -1) : entry.name;
    if (seen.has(key)) return { kind: "unsafe", message: `archive entry ${shownName(entry.name)} appears more than once; each name may appear once: rebuild the archive` };
    seen.add(key);
  }
  if (entries.length > maxEntries) return { kind: "too-large", message: `the archive has ${entries.length} entries (limit ${maxEntries}); bundle into fewer files` };
  return null;
}
