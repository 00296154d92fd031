/**
 * Writes ZIP files byte by byte for hostile archive rows: every field a reader might trust is the
 * caller's to set apart from the others (the central directory's name, the local header's name,
 * attributes, extra fields, the entry count). Entries are stored (method 0) with a correct CRC.
 */
import { crc32 } from "node:zlib";

/** One entry as written. */
export interface RawZipEntry {
  /** The name in the local header (UTF-8). */
  name: string;
  /** The name in the central directory record. @default name */
  centralName?: string;
  data?: string | Uint8Array;
  /** "Version made by": platform in the high byte. @default 0x031e (Unix) */
  madeBy?: number;
  /** External attributes. @default a regular file, mode 0644 */
  external?: number;
  /** General purpose flags of both headers. @default 0x0800 (UTF-8 names) */
  flags?: number;
  /** Extra field bytes of the central record. @default none */
  centralExtra?: Uint8Array;
  /** Points the central record at the local header of this earlier entry instead of its own. */
  localOf?: number;
}

const REGULAR_FILE = (0o100644 << 16) >>> 0;

/** The archive's bytes. */
export function rawZip(entries: readonly RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? "");
    const name = Buffer.from(entry.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(10, 4);
    header.writeUInt16LE(entry.flags ?? 0x0800, 6);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    locals.push(header, name, data);
    offset += header.length + name.length + data.length;
  }
  const centrals: Buffer[] = [];
  for (const [i, entry] of entries.entries()) {
    const data = Buffer.from(entry.data ?? "");
    const name = Buffer.from(entry.centralName ?? entry.name);
    const extra = Buffer.from(entry.centralExtra ?? new Uint8Array());
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(entry.madeBy ?? 0x031e, 4);
    record.writeUInt16LE(10, 6);
    record.writeUInt16LE(entry.flags ?? 0x0800, 8);
    record.writeUInt32LE(crc32(data), 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(data.length, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt16LE(extra.length, 30);
    record.writeUInt32LE(entry.external ?? REGULAR_FILE, 38);
    record.writeUInt32LE(offsets[entry.localOf ?? i] ?? 0, 42);
    centrals.push(record, name, extra);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An Info-ZIP Unicode Path extra field (0x7075) naming `path` for an entry whose header name is `headerName`. */
export function unicodePathExtra(headerName: string, path: string): Uint8Array {
  const value = Buffer.from(path);
  const field = Buffer.alloc(9);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + value.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(Buffer.from(headerName)), 5);
  return Buffer.concat([field, value]);
}
