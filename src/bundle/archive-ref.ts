/**
 * A function's archive as the engine holds it between planning and upload: its digest and sizes,
 * and where its canonical ZIP bytes are, not necessarily the bytes. An archive stored in the
 * bundle cache directory is held by its entry file's path and read back only when its deployment
 * is sent; one without a cache directory (`--no-cache`, a library caller without `cacheDir`, a
 * custom bundler or `bundleFunction` archive) keeps its bytes in memory.
 *
 * What is uploaded is exactly what was planned: bytes read back are checked against the planned
 * size and SHA-256 before anything is sent, and the buffer checked is the buffer sent (never read
 * from the file again). An entry file edited, truncated, replaced by another archive, by a FIFO
 * or a device, or removed since the plan fails the read with {@link ArchiveChangedError} naming
 * the function; a symlink or a replaced entry whose bytes are still the planned ones is the same
 * archive.
 */
import { hash } from "node:crypto";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { readRegularFile } from "./read-guard.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

/** Where an archive's canonical ZIP bytes are. */
export type ArchiveBytes =
  /** In memory, in a buffer nothing else holds (the archive was not written to a cache directory). */
  | { readonly kind: "held"; readonly zip: Uint8Array }
  /** In a bundle cache entry file: one line of JSON, then the ZIP bytes (see `archive-cache.ts`). */
  | { readonly kind: "cache-entry"; readonly path: string }
  /**
   * Being written to a bundle cache entry file by a run that did not wait for it: in memory
   * (`held.zip`) until the entry is complete, then, its bytes released, in the entry file as a
   * `cache-entry` is; held for good when the write fails.
   */
  | { readonly kind: "writing"; readonly path: string; readonly held: { zip: Uint8Array | undefined } };

/**
 * A function's archive by reference: the fields of a `FunctionArchive` but its bytes, and where
 * they are. Plans, fingerprints and results use the digest and sizes; only an upload reads the bytes
 * ({@link readArchiveBytes}).
 */
export interface ArchiveRef {
  slug: string;
  /** Lowercase hex SHA-256 of the ZIP bytes: what the plan decided on, and what an upload must send. */
  zipSha256: string;
  /** The ZIP's size in bytes. */
  zipBytes: number;
  /** Sum of the files' uncompressed sizes. */
  unzippedBytes: number;
  /** Number of files in the archive. */
  entries: number;
  bytes: ArchiveBytes;
}

/** Details of an {@link ArchiveChangedError}. */
export interface ArchiveChangedDetails {
  [key: string]: unknown;
  slug: string;
  /** The cache entry file the bytes were read from. */
  path: string;
  /** Why the bytes were refused. */
  reason: "unreadable" | "malformed" | "size" | "digest";
}

/**
 * The bytes of a planned archive could not be read back as planned (code `PLATFORM_BUNDLE_FAILED`):
 * the cache entry holding them changed since the plan. Nothing was sent for the function.
 */
export class ArchiveChangedError extends PlatformError<ArchiveChangedDetails> {
  constructor(details: ArchiveChangedDetails, why: string, cause?: unknown) {
    super(
      ErrorCode.BUNDLE_FAILED,
      `function ${details.slug}: its planned archive could not be read back from the bundle cache: ${why} (${escapeUnsafeText(details.path)}). Nothing was sent for it; the cache entry changed after the plan (another process or an edit): plan and apply again`,
      { details, ...(cause === undefined ? {} : { cause }) },
    );
  }
}

/** An archive with its bytes (the shape of the public `FunctionArchive`, which `archive.ts` declares). */
export type ArchiveWithBytes = Omit<ArchiveRef, "bytes"> & { zip: Uint8Array };

/** `archive` held in memory. */
export function heldArchive(archive: ArchiveWithBytes): ArchiveRef {
  const { zip, ...facts } = archive;
  return { ...facts, bytes: { kind: "held", zip } };
}

/** `archive` as the public `FunctionArchive` (its bytes read as {@link readArchiveBytes} reads them). */
export async function materializeArchive(archive: ArchiveRef): Promise<ArchiveWithBytes> {
  const { slug, zipSha256, zipBytes, unzippedBytes, entries } = archive;
  return { slug, zip: await readArchiveBytes(archive), zipSha256, zipBytes, unzippedBytes, entries };
}

/**
 * The planned ZIP bytes of `archive`: the held buffer, or the cache entry's bytes read now (through
 * the read guard: a regular file only, never waited on) and accepted only when their size and
 * SHA-256 are the planned ones.
 * @throws ArchiveChangedError naming the function when they are not.
 */
export async function readArchiveBytes(archive: ArchiveRef): Promise<Uint8Array> {
  const where = archive.bytes;
  if (where.kind === "held") return where.zip;
  if (where.kind === "writing" && where.held.zip !== undefined) return where.held.zip;
  const details = (reason: ArchiveChangedDetails["reason"]): ArchiveChangedDetails => ({ slug: archive.slug, path: where.path, reason });
  let entry: Buffer;
  try {
    entry = await readRegularFile(where.path);
  } catch (err) {
    throw new ArchiveChangedError(details("unreadable"), err instanceof Error ? err.message : String(err), err);
  }
  // JSON text has no raw line break, so the first one ends the entry's record.
  const end = entry.indexOf(0x0a);
  if (end < 0) throw new ArchiveChangedError(details("malformed"), "the entry has no record line");
  const zip = entry.subarray(end + 1);
  if (zip.byteLength !== archive.zipBytes) throw new ArchiveChangedError(details("size"), `it holds ${zip.byteLength} bytes where ${archive.zipBytes} were planned`);
  if (hash("sha256", zip, "hex") !== archive.zipSha256) throw new ArchiveChangedError(details("digest"), "its bytes are not the planned ones (another SHA-256)");
  return zip;
}
