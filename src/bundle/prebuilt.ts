/**
 * The `bundler: "none"` path: ships a prebuilt `index.mjs` /
 * `index.js`, or a directory as is, minus every entry whose name starts with `.` (`.env`,
 * `.git/`, `node_modules/.cache/`) and every key or credential file (`rules/shipped-files.ts`),
 * each exclusion a warning naming it. Symlinks are followed only when they stay inside the source.
 */
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import type { BundleError } from "../errors/index.js";
import { excludedEntryReason } from "../rules/shipped-files.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import { ZIP_LIMITS, ZIP_ROOT_ENTRIES, checkZipLimits, describeZipLimitViolation } from "../rules/zip-entries.js";
import { sourceKind } from "./entry.js";
import { bundleFailure } from "./failure.js";
import { UnreadableSourceError, readRegularFile } from "./read-guard.js";

/** The message for a root with TypeScript but no JavaScript entry. */
export const TYPESCRIPT_ONLY_MESSAGE =
  'bundler "none" ships files unchanged and the platform runs JavaScript: compile to index.mjs or use the esbuild bundler';

/** Files collected from a prebuilt source, and notes for the caller's `onWarning`. */
export interface CollectPrebuiltResult {
  files: Map<string, Uint8Array>;
  warnings: string[];
}

interface FoundFile {
  path: string;
  absolute: string;
  bytes: number;
}

/**
 * Collects the files `bundler: "none"` ships for function `slug` from `source` (a file or a
 * directory). Sizes are checked against the limits before any content is read. Throws a
 * `BundleError` naming the function when the source cannot be shipped as is.
 */
export async function collectPrebuilt(slug: string, source: string): Promise<CollectPrebuiltResult> {
  const fail = (message: string, sizes?: Iterable<{ path: string; bytes: number }>): BundleError =>
    bundleFailure(slug, message, sizes === undefined ? {} : { sizes });
  const kind = await sourceKind(source);
  if (kind === "missing") throw fail(`source ${source} does not exist: check the function's source in the policy`);
  if (kind === "other") throw fail(`source ${source} is neither a file nor a directory`);
  if (kind === "file") return collectSingleFile(source, fail);

  const root = await realpath(source);
  const walker = new PrebuiltWalker(root, fail);
  await walker.walk(root, "", [root]);
  const found = walker.found;

  const names = new Set(found.map((f) => f.path));
  if (!ZIP_ROOT_ENTRIES.some((n) => names.has(n))) {
    if (names.has("index.ts") || names.has("index.mts")) throw fail(TYPESCRIPT_ONLY_MESSAGE);
    throw fail(`no index.mjs or index.js at the root of ${source}: build the function there first, or use the esbuild bundler`);
  }
  const violations = checkZipLimits({
    zipBytes: 0,
    unzippedBytes: found.reduce((sum, f) => sum + f.bytes, 0),
    entries: found.length,
  });
  if (violations.length > 0) throw fail(violations.map(describeZipLimitViolation).join("; "), found);
  const files = new Map<string, Uint8Array>();
  for (const f of found) files.set(f.path, await readSource(f.absolute, f.path, fail));
  return { files, warnings: walker.warnings };
}

type Fail = (message: string, sizes?: Iterable<{ path: string; bytes: number }>) => BundleError;

async function collectSingleFile(source: string, fail: Fail): Promise<CollectPrebuiltResult> {
  const name = basename(source);
  if (!ZIP_ROOT_ENTRIES.includes(name)) {
    if (/\.[cm]?tsx?$/.test(name)) throw fail(TYPESCRIPT_ONLY_MESSAGE);
    throw fail(
      `bundler "none" ships a single file only when it is named index.mjs or index.js, not ${name}: ` +
        "rename it, point source at its directory, or use the esbuild bundler",
    );
  }
  const info = await stat(source);
  if (info.size > ZIP_LIMITS.maxUnzippedBytes) {
    const limit = { limit: "unzipped-bytes", actual: info.size, max: ZIP_LIMITS.maxUnzippedBytes } as const;
    throw fail(describeZipLimitViolation(limit), [{ path: name, bytes: info.size }]);
  }
  return { files: new Map([[name, await readSource(source, name, fail)]]), warnings: [] };
}

/** Reads one file to ship through the read guard; a refusal fails the function naming the file. */
async function readSource(absolute: string, path: string, fail: Fail): Promise<Uint8Array> {
  try {
    return await readRegularFile(absolute);
  } catch (err) {
    if (err instanceof UnreadableSourceError) throw fail(`${escapeUnsafeText(path)}: ${err.message}`);
    throw err;
  }
}

/** Walks a source directory, collecting files and skipping dot-entries and symlink cycles. */
class PrebuiltWalker {
  readonly found: FoundFile[] = [];
  readonly warnings: string[] = [];

  /** @param root real path of the source directory: symlinks must resolve inside it. */
  constructor(
    private readonly root: string,
    private readonly fail: Fail,
  ) {}

  /**
   * Reads `dir` (a real path) whose archive prefix is `prefix` (`""` or `a/b/`); `stack` holds
   * the real paths of the directories being walked, so a link back to one is skipped.
   */
  async walk(dir: string, prefix: string, stack: readonly string[]): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = prefix + entry.name;
      const excluded = excludedEntryReason(entry.name);
      if (excluded !== null) {
        this.warnings.push(`excluded ${escapeUnsafeText(path)}${entry.isDirectory() ? "/" : ""}: ${excluded}`);
        continue;
      }
      const target = entry.isSymbolicLink() ? await this.resolveLink(join(dir, entry.name), path) : join(dir, entry.name);
      const info = await lstat(target);
      if (info.isDirectory()) {
        if (stack.includes(target)) {
          this.warnings.push(`skipped ${escapeUnsafeText(path)}/: a symlink to a directory that contains it (a cycle)`);
          continue;
        }
        await this.walk(target, `${path}/`, [...stack, target]);
      } else if (info.isFile()) {
        this.found.push({ path, absolute: target, bytes: info.size });
        // Stop early on huge trees rather than listing all of them.
        if (this.found.length > ZIP_LIMITS.maxEntries) {
          throw this.fail(`more than ${ZIP_LIMITS.maxEntries} files (limit ${ZIP_LIMITS.maxEntries} entries)`, this.found);
        }
      } else {
        this.warnings.push(`skipped ${escapeUnsafeText(path)}: not a regular file or directory`);
      }
    }
  }

  private async resolveLink(absolute: string, path: string): Promise<string> {
    let target: string;
    try {
      target = await realpath(absolute);
    } catch (err) {
      if ((err as { code?: unknown }).code === "ELOOP") throw this.fail(`symlink ${escapeUnsafeText(path)} is a loop (it resolves back to itself): remove it or fix its target`);
      throw this.fail(`symlink ${escapeUnsafeText(path)} is dangling (its target does not exist): remove it or fix its target`);
    }
    if (target !== this.root && !target.startsWith(this.root + sep)) {
      throw this.fail(
        `symlink ${escapeUnsafeText(path)} points outside the source directory (to ${relative(this.root, target)}): ` +
          "copy the file into the directory instead",
      );
    }
    return target;
  }
}
