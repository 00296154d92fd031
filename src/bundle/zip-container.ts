/**
 * The bytes of a ZIP file around already-deflated entries: a local header before each entry's
 * data, the central directory after them, and the end record. Entries are written in the order
 * given, every one as a DEFLATE'd file (method 8; an empty file is stored, method 0, with no data)
 * with the same date and permissions, no comments, no data descriptors, no ZIP64 (the archive
 * limits keep every size and offset far below 4 GiB).
 * A name that is not ASCII is stored as UTF-8 with the UTF-8 flag and an Info-ZIP Unicode Path
 * field, as jszip writes it: the layout archives had when jszip wrote them, so digests stay.
 */
import { crc32 } from "node:zlib";
import { ZIP_FLAGS, ZIP_METHODS, ZIP_RECORDS, ZIP_UNICODE_PATH_FIELD } from "../rules/zip-entries.js";

/** One file of the archive, its data already deflated (raw DEFLATE, no zlib header). */
export interface DeflatedEntry {
  /** The archive path (checked by the caller). */
  name: string;
  /** CRC-32 of the uncompressed data. */
  crc32: number;
  /** Size of the uncompressed data. */
  size: number;
  /** The raw DEFLATE stream of the data; ignored (nothing is written) when `size` is 0. */
  deflated: Uint8Array;
}

/** The fields every entry shares. */
export interface ContainerOptions {
  /** Modification time of every entry (UTC, whole seconds are rounded down to even ones). */
  date: Date;
  /** Unix permission bits of every entry. */
  permissions: number;
}

const { local: LOCAL, central: CENTRAL, end: END } = ZIP_RECORDS;
/** Version needed to extract: 1.0, as jszip declared it for every entry. */
const VERSION_NEEDED = 10;
/** Version made by: Unix (3) in the high byte, ZIP 3.0 in the low one. */
const VERSION_MADE_BY = 0x031e;

/** Joins `entries` into one ZIP file. */
export function zipContainer(entries: readonly DeflatedEntry[], options: ContainerOptions): Uint8Array {
  const time = dosTime(options.date);
  const date = dosDate(options.date);
  const attributes = ((options.permissions & 0xffff) << 16) >>> 0;
  const named = entries.map((entry) => ({
    entry: entry.size === 0 ? { ...entry, deflated: new Uint8Array() } : entry,
    name: Buffer.from(entry.name, "utf8"),
    extra: extraField(entry.name),
  }));
  let localBytes = 0;
  let centralBytes = 0;
  for (const { entry, name, extra } of named) {
    localBytes += LOCAL.length + name.byteLength + extra.byteLength + entry.deflated.byteLength;
    centralBytes += CENTRAL.length + name.byteLength + extra.byteLength;
  }
  const out = Buffer.alloc(localBytes + centralBytes + END.length);
  let local = 0;
  let central = localBytes;
  for (const { entry, name, extra } of named) {
    const flags = extra.byteLength > 0 ? ZIP_FLAGS.utf8Name : 0;
    const offset = local;
    out.writeUInt32LE(LOCAL.signature, local);
    local = writeShared(out, local + 4, flags, time, date, entry, name, extra);
    name.copy(out, local);
    extra.copy(out, local + name.byteLength);
    out.set(entry.deflated, local + name.byteLength + extra.byteLength);
    local += name.byteLength + extra.byteLength + entry.deflated.byteLength;

    out.writeUInt32LE(CENTRAL.signature, central);
    out.writeUInt16LE(VERSION_MADE_BY, central + 4);
    central = writeShared(out, central + 6, flags, time, date, entry, name, extra);
    // Comment length, disk number start and internal attributes stay zero.
    out.writeUInt32LE(attributes, central + 6);
    out.writeUInt32LE(offset, central + 10);
    name.copy(out, central + 14);
    extra.copy(out, central + 14 + name.byteLength);
    central += 14 + name.byteLength + extra.byteLength;
  }
  out.writeUInt32LE(END.signature, central);
  // Disk numbers stay zero.
  out.writeUInt16LE(entries.length, central + 8);
  out.writeUInt16LE(entries.length, central + 10);
  out.writeUInt32LE(centralBytes, central + 12);
  out.writeUInt32LE(localBytes, central + 16);
  // The archive comment's length stays zero.
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The fields a local and a central header share, from "version needed" to the extra field's length; returns the next offset. */
function writeShared(out: Buffer, at: number, flags: number, time: number, date: number, entry: DeflatedEntry, name: Buffer, extra: Buffer): number {
  out.writeUInt16LE(VERSION_NEEDED, at);
  out.writeUInt16LE(flags, at + 2);
  out.writeUInt16LE(entry.size === 0 ? ZIP_METHODS.stored : ZIP_METHODS.deflated, at + 4);
  out.writeUInt16LE(time, at + 6);
  out.writeUInt16LE(date, at + 8);
  out.writeUInt32LE(entry.crc32 >>> 0, at + 10);
  out.writeUInt32LE(entry.deflated.byteLength, at + 14);
  out.writeUInt32LE(entry.size, at + 18);
  out.writeUInt16LE(name.byteLength, at + 22);
  out.writeUInt16LE(extra.byteLength, at + 24);
  return at + 26;
}

/** The Unicode Path field of a name that is not ASCII (version 1, CRC-32 of the stored name, the UTF-8 name); empty otherwise. */
function extraField(name: string): Buffer {
  const utf8 = Buffer.from(name, "utf8");
  if (utf8.byteLength === name.length) return Buffer.alloc(0);
  const field = Buffer.alloc(9 + utf8.byteLength);
  field.writeUInt16LE(ZIP_UNICODE_PATH_FIELD, 0);
  field.writeUInt16LE(5 + utf8.byteLength, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(utf8) >>> 0, 5);
  utf8.copy(field, 9);
  return field;
}

function dosTime(date: Date): number {
  return (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
}

function dosDate(date: Date): number {
  return ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
}
