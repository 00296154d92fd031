/**
 * Bounded reads of function sources: bundling reads only regular files, each at most
 * {@link MAX_SOURCE_FILE_BYTES}, and a build has a time limit. A symlink to `/dev/zero`, a FIFO,
 * a device or a huge file is refused naming the file, never read until memory runs out or
 * waited on forever. Every path that reads a source file for an archive goes through here: the
 * esbuild build (its plugin checks each file before esbuild loads it), the `bundler: "none"`
 * collector and the bundle cache's input hashing and its own files.
 *
 * Reads are synchronous: the files are local and mostly small, and a thread-pool round trip for
 * each open, stat, read and close cost more than the reading (400 sources hashed: 42–63 ms of
 * CPU through `fs/promises`, 5–26 ms synchronously).
 */
import { createHash, hash as hashOnce } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { Plugin } from "esbuild";
import { ZIP_LIMITS } from "../rules/zip-entries.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

/** The largest source file bundling reads: the archive's unzipped limit (64 MiB). */
export const MAX_SOURCE_FILE_BYTES = ZIP_LIMITS.maxUnzippedBytes;

/** The longest one esbuild build may run: 5 minutes. */
export const MAX_BUILD_MS = 300_000;

/** A source file bundling refuses to read; its message names the file and why. */
export class UnreadableSourceError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${escapeUnsafeText(path)} ${why}`);
  }
}

/**
 * Opens `path` without blocking (a FIFO with no writer opens at once), checks that it is a
 * regular file of at most `maxBytes`, and reads it (at most `maxBytes`, even if it grows).
 * @throws UnreadableSourceError naming the file otherwise.
 */
export async function readRegularFile(path: string, maxBytes = MAX_SOURCE_FILE_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const total = readBounded(path, maxBytes, (chunk) => chunks.push(chunk));
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * SHA-256 hex of a file read under the checks of {@link readRegularFile}, chunk by chunk: the
 * content is never held whole. A file read in one chunk (most sources) is hashed in one call,
 * without a streaming hash object. Synchronous, like the reads.
 * @throws UnreadableSourceError naming the file when it is refused.
 */
export function hashRegularFile(path: string, maxBytes = MAX_SOURCE_FILE_BYTES): string {
  let first: Buffer | undefined;
  let hash: ReturnType<typeof createHash> | undefined;
  readBounded(path, maxBytes, (chunk) => {
    if (first === undefined && hash === undefined) {
      first = chunk;
      return;
    }
    hash ??= createHash("sha256").update(first ?? Buffer.alloc(0));
    first = undefined;
    hash.update(chunk);
  });
  return hash?.digest("hex") ?? hashOnce("sha256", first ?? Buffer.alloc(0), "hex");
}

/** The largest chunk read at once. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads `path` under the checks, handing each chunk read to `onChunk` (a chunk is never reused),
 * and returns the byte count. Up to the size the file had when it was opened, plus one byte to
 * notice that it grew, a chunk is no larger than what is left to read: a small file costs small
 * buffers, however many files are read at once. A read that brings the file's opened size but not
 * the extra byte asked with it is the end of the file: no further read is made.
 */
function readBounded(path: string, maxBytes: number, onChunk: (chunk: Buffer) => void): number {
  const { fd, size } = openChecked(path, maxBytes);
  try {
    let total = 0;
    for (;;) {
      const want = Math.min(total <= size ? size + 1 - total : CHUNK_BYTES, CHUNK_BYTES, maxBytes + 1 - total);
      const chunk = Buffer.alloc(want);
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) return total;
      total += bytesRead;
      if (total > maxBytes) throw new UnreadableSourceError(path, `grew past ${formatBytes(maxBytes)} while it was read: source files are read up to that size`);
      onChunk(chunk.subarray(0, bytesRead));
      if (total === size && bytesRead < want) return total;
    }
  } finally {
    closeSync(fd);
  }
}

/** Checks what {@link readRegularFile} checks, without reading the content. */
export async function checkRegularFile(path: string, maxBytes = MAX_SOURCE_FILE_BYTES): Promise<void> {
  closeSync(openChecked(path, maxBytes).fd);
}

function openChecked(path: string, maxBytes: number): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UnreadableSourceError(path, `is ${kindOf(info)}, not a regular file: bundling reads only regular files`);
    if (info.size > maxBytes) throw new UnreadableSourceError(path, `is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} a source file may have`);
    return { fd, size: info.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function kindOf(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  if (info.isDirectory()) return "a directory";
  return "not a regular file";
}

function formatBytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/**
 * The esbuild plugin that checks every file esbuild is about to load (after symlinks resolve)
 * with {@link checkRegularFile}; esbuild then loads it as usual. A refused file fails the build
 * with the message naming it.
 */
export function regularFilesOnly(): Plugin {
  return {
    name: "svc-regular-files-only",
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
        try {
          await checkRegularFile(args.path);
          return undefined;
        } catch (err) {
          return { errors: [{ text: err instanceof Error ? err.message : String(err) }] };
        }
      });
    },
  };
}
