/**
 * The canonical ZIP writer and the reader for archives made elsewhere: entries
 * sorted by UTF-8 path bytes, files only, every date 1980-01-01 00:00:00 UTC, permissions 0644,
 * DEFLATE level 6, no comments. The same files give the same bytes on any machine or time zone.
 */
import { setImmediate } from "node:timers/promises";
import { crc32 } from "node:zlib";
import { escapeUnsafeText } from "../rules/visible-text.js";
import {
  ZIP_ENTRY_NAME_ISSUE_MESSAGES,
  ZIP_LIMITS,
  describeZipLimitViolation,
  isSymlinkMode,
  zipEntryNameIssue,
} from "../rules/zip-entries.js";
import { bundleFailure } from "./failure.js";
import { loadJszip } from "./lazy-modules.js";
import { rawDeflater } from "./raw-deflate.js";
import { type DeflatedEntry, zipContainer } from "./zip-container.js";

/** Archive path (relative POSIX) → file contents. */
export type BundleFiles = ReadonlyMap<string, Uint8Array>;

/** The fixed timestamp of every entry. */
export const CANONICAL_ZIP_DATE = new Date(Date.UTC(1980, 0, 1));

/** The permissions of every entry. */
export const CANONICAL_ZIP_PERMISSIONS = 0o644;

/** The DEFLATE level of every entry. */
export const CANONICAL_DEFLATE_LEVEL = 6;

/** Compares two paths by their UTF-8 bytes (not UTF-16 code units). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Paths of `files` in canonical order. */
export function sortedPaths(files: BundleFiles): string[] {
  return [...files.keys()].sort(compareUtf8);
}

/**
 * How many input bytes are deflated between two turns of the event loop: a large archive is
 * written in slices so that requests in flight are answered meanwhile.
 */
const DEFLATE_SLICE_BYTES = 1024 * 1024;

/**
 * Writes `files` as a canonical ZIP. Paths must already be checked (see `zipEntryNameIssue`);
 * directories are implied by the paths and never written as entries. Each file is deflated by
 * pako (the compressor and settings jszip used, so archives keep their bytes and digests) and
 * its CRC-32 computed natively; an archive in progress holds only its files' deflated data.
 */
export async function writeCanonicalZip(files: BundleFiles): Promise<Uint8Array> {
  const deflate = rawDeflater(CANONICAL_DEFLATE_LEVEL);
  const entries: DeflatedEntry[] = [];
  let sinceYield = 0;
  for (const name of sortedPaths(files)) {
    if (sinceYield >= DEFLATE_SLICE_BYTES) {
      sinceYield = 0;
      await setImmediate();
    }
    const data = files.get(name) ?? new Uint8Array();
    const deflated = data.byteLength === 0 ? data : deflate(data);
    entries.push({ name, crc32: crc32(data), size: data.byteLength, deflated });
    sinceYield += data.byteLength;
  }
  return zipContainer(entries, { date: CANONICAL_ZIP_DATE, permissions: CANONICAL_ZIP_PERMISSIONS });
}

/**
 * Reads an archive produced outside svc-config (the `bundleFunction` option) for function
 * `slug`: checks every raw entry name (directory entries dropped), refuses symlinks, counts
 * entries and decompressed bytes against the limits while reading (declared sizes are not
 * trusted), and returns the files. Throws a `BundleError` naming the function and the entries.
 */
export async function readForeignZip(slug: string, bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const JSZip = await loadJszip();
  let zip: InstanceType<typeof JSZip>;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: true, createFolders: false });
  } catch (err) {
    const message = `bundleFunction returned bytes that are not a readable ZIP archive (${errorText(err)})`;
    throw bundleFailure(slug, message, { cause: err });
  }
  const entries = Object.values(zip.files);
  const unsafe: string[] = [];
  const fileEntries: typeof entries = [];
  for (const entry of entries) {
    const raw = entry.unsafeOriginalName ?? entry.name;
    const issue = zipEntryNameIssue(raw, { directory: entry.dir });
    if (issue !== null) unsafe.push(`"${escapeUnsafeText(raw)}" (${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]})`);
    else if (isSymlinkMode(typeof entry.unixPermissions === "number" ? entry.unixPermissions : null)) {
      unsafe.push(`"${escapeUnsafeText(raw)}" (a symbolic link)`);
    } else if (!entry.dir) fileEntries.push(entry);
  }
  if (unsafe.length > 0) {
    throw bundleFailure(slug, `the archive from bundleFunction has unsafe entries: ${unsafe.join(", ")}`);
  }
  if (fileEntries.length > ZIP_LIMITS.maxEntries) {
    const limit = { limit: "entries", actual: fileEntries.length, max: ZIP_LIMITS.maxEntries } as const;
    throw bundleFailure(slug, describeZipLimitViolation(limit));
  }
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const entry of fileEntries) {
    let data: Uint8Array;
    try {
      data = await entry.async("uint8array");
    } catch (err) {
      throw bundleFailure(slug, `archive entry "${escapeUnsafeText(entry.name)}" could not be decompressed (${errorText(err)})`, { cause: err });
    }
    files.set(entry.name, data);
    total += data.byteLength;
    if (total > ZIP_LIMITS.maxUnzippedBytes) {
      const limit = { limit: "unzipped-bytes", actual: total, max: ZIP_LIMITS.maxUnzippedBytes } as const;
      const sizes = [...files].map(([path, d]) => ({ path, bytes: d.byteLength }));
      throw bundleFailure(slug, `${describeZipLimitViolation(limit)}, counted while decompressing`, { sizes });
    }
  }
  return files;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
