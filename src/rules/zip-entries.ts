/**
 * ZIP entry-name rules and archive limits shared by the bundler and the
 * emulator's deployment route, so both sides accept and refuse the same archives.
 * Leaf module: imports only its sibling rule on unsafe characters.
 */
import { findUnsafeCharacter } from "./visible-text.js";

/** Archive limits, checked after zipping on every bundling path and by the deployment route. */
export const ZIP_LIMITS = Object.freeze({
  /** Compressed archive size: 10 MiB. */
  maxZipBytes: 10 * 1024 * 1024,
  /** Sum of the uncompressed sizes of all entries: 64 MiB. */
  maxUnzippedBytes: 64 * 1024 * 1024,
  /** Number of entries (files; canonical archives have no directory entries): 4096. */
  maxEntries: 4096,
});

/**
 * The ZIP records' signatures and fixed lengths (before their variable fields), shared by the
 * bundler's writer and the emulator's reader of plain archives.
 */
export const ZIP_RECORDS = Object.freeze({
  local: Object.freeze({ signature: 0x04034b50, length: 30 }),
  central: Object.freeze({ signature: 0x02014b50, length: 46 }),
  end: Object.freeze({ signature: 0x06054b50, length: 22 }),
});

/** The two compression methods an archive may use. */
export const ZIP_METHODS = Object.freeze({ stored: 0, deflated: 8 });

/** General-purpose flag bits and the extra field the readers and the writer look at. */
export const ZIP_FLAGS = Object.freeze({ encrypted: 0x0001, utf8Name: 0x0800 });

/** Info-ZIP Unicode Path extra field ("up"): a UTF-8 name that some readers take over the header's. */
export const ZIP_UNICODE_PATH_FIELD = 0x7075;

/** Root entries the functions runtime starts from, in order of preference. */
export const ZIP_ROOT_ENTRIES: readonly string[] = Object.freeze(["index.mjs", "index.js"]);

/** How many of the largest files a limit error names. */
export const LARGEST_FILES_REPORTED = 5;

/** Why an entry name could write outside the extraction directory ("zip slip"). */
export type ZipSlipIssue = "absolute" | "backslash" | "drive-letter" | "dot-dot-segment" | "control-character" | "invisible-character";

/** Why an archive path is not canonical; `null` from {@link zipEntryNameIssue} when it is. */
export type ZipEntryNameIssue = ZipSlipIssue | "empty" | "dot-segment" | "empty-segment";

/** Human-readable explanation of each {@link ZipEntryNameIssue}. */
export const ZIP_ENTRY_NAME_ISSUE_MESSAGES: Readonly<Record<ZipEntryNameIssue, string>> = Object.freeze({
  empty: "the path is empty",
  absolute: "the path is absolute (starts with /)",
  backslash: "the path contains a backslash (use / as the separator)",
  "drive-letter": "the path starts with a drive letter",
  "dot-dot-segment": "the path contains a .. segment",
  "dot-segment": "the path contains a . segment",
  "empty-segment": "the path contains an empty segment (//)",
  "control-character": "the path contains a control character",
  "invisible-character": "the path contains a zero-width, bidirectional-override or line-separator character (a name that reads as another)",
});

/**
 * The rule the deployment route enforces on every raw entry name: a name starting
 * with `/`, containing a backslash, starting with a drive letter (`C:`), having a `..` segment
 * (zip slip), holding a control character (C0, DEL, C1: a newline in a name forges lines of
 * every listing and log) or a zero-width, bidirectional-override, line-separator or lone-surrogate
 * character (`invisible-character`: a name that shows as another, `invoice\u202efdp.exe`) is unsafe. Directory entries (`dir/`) pass. Returns the issue, or `null`.
 */
export function zipSlipIssue(name: string): ZipSlipIssue | null {
  if (name.startsWith("/")) return "absolute";
  if (name.includes("\\")) return "backslash";
  if (/^[A-Za-z]:/.test(name)) return "drive-letter";
  if (name.split("/").includes("..")) return "dot-dot-segment";
  const unsafe = findUnsafeCharacter(name);
  if (unsafe === null) return null;
  return unsafe.kind === "control" ? "control-character" : "invisible-character";
}

/**
 * Checks one file path the bundler writes: the zip-slip rule
 * plus no empty, `.` or empty segments and no control characters, so every path is a plain
 * relative POSIX path. A directory entry's single trailing `/` is allowed when `directory` is
 * true. Returns the first issue found, or `null` when the path is canonical.
 */
export function zipEntryNameIssue(name: string, options: { directory?: boolean } = {}): ZipEntryNameIssue | null {
  const slip = zipSlipIssue(name);
  if (slip !== null) return slip;
  const path = options.directory === true && name.endsWith("/") ? name.slice(0, -1) : name;
  if (path.length === 0) return "empty";
  for (const segment of path.split("/")) {
    if (segment === "") return "empty-segment";
    if (segment === ".") return "dot-segment";
  }
  return null;
}

/** Whether the archive's file names include `index.mjs` or `index.js` at the root. */
export function hasRootEntry(fileNames: Iterable<string>): boolean {
  for (const name of fileNames) if (ZIP_ROOT_ENTRIES.includes(name)) return true;
  return false;
}

/** The Unix file-type bits (`S_IFMT`) and the symlink type (`S_IFLNK`) of a mode. */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * Whether an entry's Unix mode (the high 16 bits of a ZIP entry's external attributes, as
 * jszip's `unixPermissions`) marks a symbolic link. `null`/`undefined` (no Unix mode) is not.
 */
export function isSymlinkMode(unixMode: number | null | undefined): boolean {
  return typeof unixMode === "number" && (unixMode & S_IFMT) === S_IFLNK;
}

/** One file of an archive with its uncompressed size, as limit checks see it. */
export interface ZipFileSize {
  path: string;
  bytes: number;
}

/** Which limit an archive exceeds. */
export type ZipLimitViolation =
  | { limit: "zip-bytes"; actual: number; max: number }
  | { limit: "unzipped-bytes"; actual: number; max: number }
  | { limit: "entries"; actual: number; max: number };

/**
 * Checks an archive against {@link ZIP_LIMITS}: its compressed size, the sum of its files'
 * uncompressed sizes and its entry count. Returns every violation (empty when within limits).
 */
export function checkZipLimits(archive: { zipBytes: number; unzippedBytes: number; entries: number }): ZipLimitViolation[] {
  const violations: ZipLimitViolation[] = [];
  if (archive.zipBytes > ZIP_LIMITS.maxZipBytes) {
    violations.push({ limit: "zip-bytes", actual: archive.zipBytes, max: ZIP_LIMITS.maxZipBytes });
  }
  if (archive.unzippedBytes > ZIP_LIMITS.maxUnzippedBytes) {
    violations.push({ limit: "unzipped-bytes", actual: archive.unzippedBytes, max: ZIP_LIMITS.maxUnzippedBytes });
  }
  if (archive.entries > ZIP_LIMITS.maxEntries) {
    violations.push({ limit: "entries", actual: archive.entries, max: ZIP_LIMITS.maxEntries });
  }
  return violations;
}

/** A sentence describing one limit violation, e.g. "the archive is 12.0 MiB (limit 10 MiB)". */
export function describeZipLimitViolation(violation: ZipLimitViolation): string {
  switch (violation.limit) {
    case "zip-bytes":
      return `the archive is ${formatBytes(violation.actual)} (limit ${formatBytes(violation.max)})`;
    case "unzipped-bytes":
      return `the files total ${formatBytes(violation.actual)} uncompressed (limit ${formatBytes(violation.max)})`;
    case "entries":
      return `the archive has ${violation.actual} entries (limit ${violation.max})`;
  }
}

/**
 * The `count` largest files, largest first; ties ordered by path so the result is stable.
 * @default count {@link LARGEST_FILES_REPORTED}
 */
export function largestZipFiles(files: Iterable<ZipFileSize>, count: number = LARGEST_FILES_REPORTED): ZipFileSize[] {
  return [...files]
    .sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, count)
    .map((f) => ({ path: f.path, bytes: f.bytes }));
}

/** Bytes as a short human size: `512 B`, `3.4 KiB`, `12.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB`;
}
