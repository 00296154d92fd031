/**
 * The content-addressed archive cache. A function's build
 * identity (bundler, entry or shipped source, working directory, build options, the esbuild and
 * svc-config versions) names an entry that records the SHA-256 of every input file the archive
 * was made from; the entry is used only while every input still hashes the same, and its archive
 * only while the archive's own digest still matches. Layout, under `<cacheDir>/v2/`: one file
 * per identity, `<identity>.entry`, written atomically: the record (its identity, inputs, digest,
 * warnings) as one line of JSON, then the archive's bytes. An entry whose record names another
 * identity (copied or moved from another function's name) is a miss. One file, not a record and a separate archive:
 * creating and reading a file is most of what an entry costs.
 * The inputs are a list of `[path, sha256]` pairs: an object keyed by path, as entries written
 * before 2026-11-27 have it (refused as malformed: a miss, rebuilt once), made every entry parse
 * into an object of its own shape, which cost more than the lookup's reads.
 * A corrupt, truncated or unreadable entry is a miss; a failed write leaves the build as it was.
 * An archive found in or written to the directory is kept by its entry file, not its bytes: an
 * upload reads them back and checks them against the planned digest (`archive-ref.ts`).
 */
import { hash as hashOnce } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LIBRARY_VERSION } from "../version.js";
import type { ArchiveBytes, ArchiveRef } from "./archive-ref.js";
import { writeAtomicInThreadPool } from "./atomic-write.js";
import { hashRegularFile, readRegularFile } from "./read-guard.js";

/** Bumped when the key changes, or the entry layout so that an older entry would not be refused as malformed: older entries are never misread. */
const CACHE_FORMAT = "v2";

/** File names esbuild consults while resolving and compiling, in every directory above an input. */
const RESOLUTION_FILES = ["package.json", "tsconfig.json", "jsconfig.json"];

/** Each input's path and the SHA-256 hex of its contents (`null` when it cannot be read: missing), by path. */
export type InputHashes = readonly (readonly [path: string, sha256: string | null])[];

/** Hashes a file's contents (memoised for one bundling run); `null` when it cannot be read. */
export type FileHasher = (path: string) => string | null;

/**
 * An archive as the cache keeps it (an `ArchiveRef` without its slug): by its entry file once
 * written to the directory, else with its bytes held in memory.
 */
export type StoredArchive = Omit<ArchiveRef, "slug">;

/** A cached archive and the bundler warnings its build gave, replayed on every hit. */
export interface CachedArchive {
  archive: StoredArchive;
  warnings: string[];
}

/** The JSON entry stored under an identity. */
interface CacheRecord {
  /** The identity the entry was stored under: an entry copied or moved under another name is a miss. */
  identity: string;
  inputs: InputHashes;
  zipSha256: string;
  zipBytes: number;
  unzippedBytes: number;
  entries: number;
  warnings: string[];
}

/** SHA-256 hex of `bytes`. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return hashOnce("sha256", bytes, "hex");
}

/**
 * A {@link FileHasher} that reads each path at most once. Synchronous, like the read guard's
 * reads: the hundreds of lookups of a plan share most inputs, and a promise for each answer
 * cost more than the memo.
 */
export function createFileHasher(): FileHasher {
  const memo = new Map<string, string | null>();
  return (path) => {
    let hash = memo.get(path);
    if (hash === undefined) {
      hash = absent(path) ? null : hashOrNull(path);
      memo.set(path, hash);
    }
    return hash;
  };
}

/** Through the read guard: a cached input replaced by a FIFO or a device is a miss, never a hang. */
function hashOrNull(path: string): string | null {
  try {
    return hashRegularFile(path);
  } catch {
    return null;
  }
}

/**
 * Whether nothing exists at `path`, answered without opening it or raising an error: most of the
 * inputs an entry records are configuration files absent from every directory above a source
 * (three per directory), and a failed open costs an error and a thread-pool round trip each.
 */
function absent(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * How many entries the cache directory holds (0 when it does not exist or cannot be listed): one
 * listing, nothing opened. Only a hint for scheduling: an entry may be stale or another
 * function's, so a lookup still decides every hit.
 */
export function cachedEntryCount(cacheDir: string): number {
  try {
    return readdirSync(join(resolve(cacheDir), CACHE_FORMAT)).filter((name) => name.endsWith(".entry")).length;
  } catch {
    return 0;
  }
}

/** The identity of a build: what, besides its input files' contents, decides the archive. */
export function buildIdentity(parts: Record<string, unknown>): string {
  return sha256Hex(identityText(parts));
}

function identityText(parts: Record<string, unknown>): string {
  return JSON.stringify({ format: CACHE_FORMAT, svcConfig: LIBRARY_VERSION, ...parts });
}

/** A string no build part holds (a path or a package name cannot contain NUL). */
const TEMPLATE_MARK = "\u0000svc-identity-template\u0000";

/**
 * The identities of builds whose parts differ in one string only (each function's entry, the rest
 * of its build options shared): `identityOf(value)` is `buildIdentity(partsWith(value))`, the
 * parts' JSON text made once and each value's JSON spliced into it.
 */
export function identityTemplate(partsWith: (value: string) => Record<string, unknown>): (value: string) => string {
  const text = identityText(partsWith(TEMPLATE_MARK));
  const mark = JSON.stringify(TEMPLATE_MARK);
  const at = text.indexOf(mark);
  if (at < 0 || text.includes(mark, at + 1)) return (value) => buildIdentity(partsWith(value));
  const before = text.slice(0, at);
  const after = text.slice(at + mark.length);
  return (value) => sha256Hex(`${before}${JSON.stringify(value)}${after}`);
}

/**
 * The resolution files ({@link RESOLUTION_FILES}) of a directory and of every directory above it,
 * by directory: what {@link esbuildInputHashes} adds for an input in that directory. The paths
 * depend on the directory's name only; one map serves a bundling run, whose functions mostly sit
 * in sibling directories and share every directory above their own.
 */
export type ResolutionPaths = Map<string, readonly string[]>;

/**
 * The hashes an esbuild archive depends on: every input file of its metafile, and the
 * `package.json` / `tsconfig.json` / `jsconfig.json` of every directory above one (absent ones
 * recorded as `null`, so creating one invalidates the entry too). `above` keeps each directory's
 * list of those files across calls (a run's inputs share most directories).
 */
export async function esbuildInputHashes(inputs: readonly string[], hash: FileHasher, above: ResolutionPaths = new Map()): Promise<InputHashes> {
  const paths = new Set(inputs);
  for (const input of inputs) for (const path of resolutionPathsFrom(dirname(input), above)) paths.add(path);
  return [...paths].sort().map((path) => [path, hash(path)] as const);
}

/** The resolution files of `dir` and every directory above it, nearest first, kept in `above`. */
function resolutionPathsFrom(dir: string, above: ResolutionPaths): readonly string[] {
  const known = above.get(dir);
  if (known !== undefined) return known;
  const parent = dirname(dir);
  const own = RESOLUTION_FILES.map((name) => join(dir, name));
  const paths = parent === dir ? own : [...own, ...resolutionPathsFrom(parent, above)];
  above.set(dir, paths);
  return paths;
}

/** Whether every recorded input still hashes the same; stops reading at the first that does not. */
export async function inputsUnchanged(inputs: InputHashes, hash: FileHasher): Promise<boolean> {
  return inputs.every(([path, recorded]) => hash(path) === recorded);
}

/**
 * Archives built in this process, by identity (the latest one each), checked like the directory's:
 * what lets an operation reuse the archives of the plan before it (once per run), with or
 * without a cache directory. Lives as long as its holder keeps it.
 */
export type ArchiveMemory = Map<string, CachedArchive & { inputs: InputHashes }>;

/**
 * Entry writes that a bundling run started and did not wait for (`bundleFunctions`'
 * `pendingWrites`): whoever passed it waits for {@link PendingWrites.settled} before its operation
 * ends, so the run's entries are on disk by then.
 */
export class PendingWrites {
  private readonly writes: Promise<unknown>[] = [];

  /** Counts `write` in; it must never reject. */
  add(write: Promise<unknown>): void {
    this.writes.push(write);
  }

  /** Resolves once every write added, including those added while it waits, has ended; never rejects. */
  async settled(): Promise<void> {
    for (let done = 0; done < this.writes.length; ) {
      const batch = this.writes.slice(done);
      await Promise.all(batch);
      done += batch.length;
    }
  }
}

/**
 * Looks archives up in an {@link ArchiveMemory} first, then in a cache directory (when given),
 * and stores each new one in both.
 */
export class ArchiveCache {
  private readonly dir: string | undefined;
  /**
   * Whether the directory existed when this cache was made. When it did not (a cold cache: a fresh
   * clone, or one cleared), no entry can be read from it, so lookups do not try: a failing open per
   * function cost a cold run's bundling its start. Entries this cache writes are in its memory; an
   * entry another process writes meanwhile is a miss, as it would have been a moment earlier.
   */
  private readonly listed: boolean;

  /**
   * @param cacheDir the cache directory (created on the first write); none keeps archives in `memory` only.
   * @param memory the archives of earlier operations of this run.
   * @param pending when given, {@link store} does not wait for an entry's write: the write is added
   * here, and the archive returned keeps its bytes until the entry is complete (`"writing"`).
   */
  constructor(
    cacheDir: string | undefined,
    private readonly memory: ArchiveMemory = new Map(),
    private readonly pending?: PendingWrites,
  ) {
    this.dir = cacheDir === undefined ? undefined : join(resolve(cacheDir), CACHE_FORMAT);
    this.listed = this.dir !== undefined && existsSync(this.dir);
  }

  /**
   * The archive stored for `identity` when `verify` accepts its recorded inputs and the archive's
   * bytes match their digest; `undefined` otherwise (absent, corrupt, stale). An archive found in
   * the directory is returned by its entry file (its bytes, read and checked here, are not kept:
   * an upload reads them again and checks them against the same digest).
   */
  async lookup(identity: string, verify: (inputs: InputHashes) => Promise<boolean>): Promise<CachedArchive | undefined> {
    const remembered = this.memory.get(identity);
    if (remembered !== undefined && (await verify(remembered.inputs))) return { archive: remembered.archive, warnings: remembered.warnings };
    if (this.dir === undefined || !this.listed) return undefined;
    const path = this.entryPath(identity);
    // The cache's own file through the read guard too: one replaced by a FIFO or a device is a miss, never a hang.
    const bytes = await readRegularFile(path).catch(() => undefined);
    // JSON text has no raw line break, so the first one ends the record.
    const end = bytes === undefined ? -1 : bytes.indexOf(0x0a);
    if (bytes === undefined || end < 0) return undefined;
    const record = parseRecord(bytes.toString("utf8", 0, end));
    if (record === undefined || record.identity !== identity || !(await verify(record.inputs))) return undefined;
    const zip = bytes.subarray(end + 1);
    if (zip.byteLength !== record.zipBytes || sha256Hex(zip) !== record.zipSha256) return undefined;
    const archive: StoredArchive = { zipSha256: record.zipSha256, zipBytes: record.zipBytes, unzippedBytes: record.unzippedBytes, entries: record.entries, bytes: { kind: "cache-entry", path } };
    this.memory.set(identity, { archive, warnings: record.warnings, inputs: record.inputs });
    return { archive, warnings: record.warnings };
  }

  /**
   * The archive remembered in memory under `identity`, unchecked: for what has no files to
   * re-hash (a custom bundler's output within one run). Never read from or written to the directory.
   */
  recall(identity: string): CachedArchive | undefined {
    return this.memory.get(identity);
  }

  /** Remembers `built` in memory only (see {@link recall}). */
  remember(identity: string, built: CachedArchive): void {
    this.memory.set(identity, { ...built, inputs: [] });
  }

  /**
   * Stores `built` (its bytes held) under `identity` with the hashes of its inputs, and resolves to
   * the archive as it is kept from now on: by its entry file once written, so its bytes can be
   * released; still held without a directory or when the write fails. Never rejects. The entry's
   * system calls run in the thread pool (`atomic-write.ts`: creating the file is most of its cost,
   * and the main thread has other archives to finish meanwhile); the archive keeps its bytes until
   * the file is complete. The directory is made only when a write finds it missing (once per run,
   * or again if it is removed meanwhile).
   */
  async store(identity: string, inputs: InputHashes, built: CachedArchive): Promise<StoredArchive> {
    const { archive, warnings } = built;
    // Its own fields only: a caller's archive may carry its slug, which another function sharing the identity must not get.
    const { zipSha256, zipBytes, unzippedBytes, entries } = archive;
    const bytes = this.pending === undefined ? await this.write(identity, inputs, built) : this.writeLater(identity, inputs, built, this.pending);
    const stored: StoredArchive = { zipSha256, zipBytes, unzippedBytes, entries, bytes: bytes ?? archive.bytes };
    this.memory.set(identity, { archive: stored, warnings, inputs });
    return stored;
  }

  /** The entry file of `identity` (the directory must be set). */
  private entryPath(identity: string): string {
    return join(this.dir ?? "", `${identity}.entry`);
  }

  /**
   * Starts the entry's write without waiting for it (added to `pending`): the bytes stay held in
   * the `"writing"` place returned until the entry is complete, and for good when it fails.
   * `undefined` when there is nothing to write (no directory, bytes not held).
   */
  private writeLater(identity: string, inputs: InputHashes, built: CachedArchive, pending: PendingWrites): ArchiveBytes | undefined {
    const { bytes } = built.archive;
    if (this.dir === undefined || bytes.kind !== "held") return undefined;
    const held: { zip: Uint8Array | undefined } = { zip: bytes.zip };
    pending.add(
      this.write(identity, inputs, built).then(
        (written) => {
          if (written !== undefined) held.zip = undefined;
        },
        () => undefined,
      ),
    );
    return { kind: "writing", path: this.entryPath(identity), held };
  }

  /** Writes the entry of a held archive; where its bytes are now, or `undefined` when not written. Never rejects. */
  private async write(identity: string, inputs: InputHashes, built: CachedArchive): Promise<ArchiveBytes | undefined> {
    const { archive, warnings } = built;
    const dir = this.dir;
    if (dir === undefined || archive.bytes.kind !== "held") return undefined;
    const record: CacheRecord = {
      identity,
      inputs,
      zipSha256: archive.zipSha256,
      zipBytes: archive.zipBytes,
      unzippedBytes: archive.unzippedBytes,
      entries: archive.entries,
      warnings,
    };
    const entry = Buffer.concat([Buffer.from(`${JSON.stringify(record)}\n`), archive.bytes.zip]);
    const path = this.entryPath(identity);
    // The cache only saves time: an unwritable directory leaves the build as it was (held).
    return (await writeAtomicInThreadPool(dir, path, entry)) ? { kind: "cache-entry", path } : undefined;
  }
}

function parseRecord(text: string): CacheRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Partial<CacheRecord>;
  const counts = [r.zipBytes, r.unzippedBytes, r.entries].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
  // Each path once: a listed input stands for one file, and a prebuilt source's check counts them.
  const inputs =
    Array.isArray(r.inputs) &&
    r.inputs.every((input: unknown) => Array.isArray(input) && input.length === 2 && typeof input[0] === "string" && (input[1] === null || typeof input[1] === "string")) &&
    new Set(r.inputs.map(([path]) => path)).size === r.inputs.length;
  const warnings = Array.isArray(r.warnings) && r.warnings.every((w) => typeof w === "string");
  if (!counts || !inputs || !warnings || typeof r.identity !== "string" || typeof r.zipSha256 !== "string" || !/^[0-9a-f]{64}$/.test(r.zipSha256)) return undefined;
  return r as CacheRecord;
}
