/**
 * Builds one function's deterministic archive on every bundling path: esbuild,
 * `"none"`, a custom `FileBundler`, or a finished ZIP from the `bundleFunction` option; then
 * checks the files, writes the canonical ZIP, enforces the limits and digests it.
 */
import { escapeUnsafeText } from "../rules/visible-text.js";
import { dirname, join } from "node:path";
import type { ResolvedFunctionConfig } from "../model/desired-state.js";
import { BundleError } from "../errors/index.js";
import {
  ZIP_ENTRY_NAME_ISSUE_MESSAGES,
  ZIP_ROOT_ENTRIES,
  checkZipLimits,
  describeZipLimitViolation,
  zipEntryNameIssue,
} from "../rules/zip-entries.js";
import { type ArchiveCache, buildIdentity, type InputHashes, sha256Hex } from "./archive-cache.js";
import { type ArchiveRef, heldArchive, materializeArchive } from "./archive-ref.js";
import { readForeignZip, sortedPaths, writeCanonicalZip, type BundleFiles } from "./canonical-zip.js";
import { findEntry, sourceKind } from "./entry.js";
import { runEsbuild } from "./esbuild-bundler.js";
import { PackageStager, resolveExternals, withStagedFiles } from "./external-packages.js";
import { undeclaredNativeWarnings } from "./external-packages-native.js";
import { StagingError } from "./external-packages-stage.js";
import { bundleFailure } from "./failure.js";
import { runFileBundler } from "./file-map.js";
import { collectPrebuilt } from "./prebuilt.js";

/** A note from a bundler (an esbuild warning, a skipped symlink cycle); never fatal. */
export interface BundleWarning {
  /** The function being bundled. */
  slug: string;
  message: string;
}

/** Replaces bundling with finished ZIP bytes (the `bundleFunction` operation option). */
export type BundleFunction = (fn: ResolvedFunctionConfig) => Promise<Uint8Array>;

/** Options of {@link buildFunctionArchive}. */
export interface BuildFunctionArchiveOptions {
  /** Receives bundler warnings; its exceptions are ignored. */
  onWarning?: (warning: BundleWarning) => void;
  /**
   * esbuild's working directory: paths in diagnostics, CommonJS wrappers and source maps are
   * relative to it. The engine passes the policy's directory.
   * @default the function's source directory (or the entry file's directory)
   */
  workingDir?: string;
  /** Finished ZIP bytes instead of bundling; the archive is checked and rewritten canonically. */
  bundleFunction?: BundleFunction;
  /** Reuses and stores `bundler: "none"` archives (esbuild ones are cached by `bundleFunctions`). */
  cache?: ArchiveCache;
}

/** A function's canonical archive and its digest. */
export interface FunctionArchive {
  slug: string;
  /** The canonical ZIP bytes. */
  zip: Uint8Array;
  /** Lowercase hex SHA-256 of `zip`. */
  zipSha256: string;
  /** `zip.byteLength`. */
  zipBytes: number;
  /** Sum of the files' uncompressed sizes. */
  unzippedBytes: number;
  /** Number of files in the archive. */
  entries: number;
}

/**
 * Bundles one function into its canonical archive. Throws a `BundleError` with one failure
 * naming the function (missing entry, esbuild diagnostics, bad output, unsafe paths, limits).
 */
export async function buildFunctionArchive(
  fn: ResolvedFunctionConfig,
  options: BuildFunctionArchiveOptions = {},
): Promise<FunctionArchive> {
  return materializeArchive(await buildArchive(fn, options));
}

/**
 * {@link buildFunctionArchive} for the engine: the archive by reference (kept by its cache entry
 * when `options.cache` has a directory and the function is `bundler: "none"`, else held).
 */
export async function buildArchive(fn: ResolvedFunctionConfig, options: BuildFunctionArchiveOptions = {}): Promise<ArchiveRef> {
  const warn = (message: string): void => {
    try {
      options.onWarning?.({ slug: fn.slug, message });
    } catch {
      // A failing warning listener must not fail the bundle.
    }
  };
  try {
    const { files, origin } = await produceFiles(fn, options, warn);
    if (options.cache !== undefined && options.bundleFunction === undefined && fn.bundler === "none") {
      return await finishPrebuiltCached(options.cache, fn, files, origin);
    }
    return heldArchive(await finishArchive(fn.slug, files, origin));
  } catch (err) {
    throw asBundleError(fn.slug, err);
  }
}

/** `err` as the `BundleError` of function `slug` (an Error's message becomes its failure). */
export function asBundleError(slug: string, err: unknown): BundleError {
  if (err instanceof BundleError) return err;
  if (err instanceof StagingError) return bundleFailure(slug, err.message, { cause: err, reason: err.reason });
  return bundleFailure(slug, err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * `bundler: "none"` with a cache: the shipped files' hashes are the inputs, so a hit skips only
 * the zipping; a miss finishes the archive and stores it.
 */
async function finishPrebuiltCached(cache: ArchiveCache, fn: ResolvedFunctionConfig, files: BundleFiles, origin: string): Promise<ArchiveRef> {
  const inputs: InputHashes = sortedPaths(files).map((path) => [path, sha256Hex(files.get(path) ?? "")] as const);
  const identity = buildIdentity({ bundler: "none", source: shippedSource(fn) });
  const shipped = new Map(inputs);
  const same = async (recorded: InputHashes): Promise<boolean> =>
    recorded.length === files.size && recorded.every(([path, hash]) => shipped.get(path) === hash);
  const hit = await cache.lookup(identity, same);
  if (hit !== undefined) return { slug: fn.slug, ...hit.archive };
  const archive = heldArchive(await finishArchive(fn.slug, files, origin));
  return { slug: fn.slug, ...(await cache.store(identity, inputs, { archive, warnings: [] })) };
}

/** What `svc dev` runs for one function: the files a deployment ships, and the sources they came from. */
export interface DevBuild {
  files: BundleFiles;
  /**
   * Absolute paths of the source files the build read (esbuild's metafile; the shipped files for
   * `bundler: "none"`); empty for a custom bundler, whose inputs are unknown.
   */
  inputs: string[];
}

/**
 * Builds `fn` for `svc dev` on the deployment's own path (the same bundler, options and file
 * checks), except that esbuild writes an inline source map so stacks name the user's lines, and
 * the archive is neither zipped nor held to the size limits (a deployment checks them). Throws a
 * `BundleError` naming the function, as a deployment would.
 */
export async function buildDevFiles(fn: ResolvedFunctionConfig, options: Pick<BuildFunctionArchiveOptions, "workingDir" | "onWarning"> = {}): Promise<DevBuild> {
  const warn = (message: string): void => {
    try {
      options.onWarning?.({ slug: fn.slug, message });
    } catch {
      // A failing warning listener must not fail the build.
    }
  };
  try {
    const { files, origin, inputs } = await produceFiles(fn, options, warn, { inlineSourcemap: true });
    checkArchivePaths(fn.slug, files, origin);
    return { files, inputs };
  } catch (err) {
    throw asBundleError(fn.slug, err);
  }
}

async function produceFiles(
  fn: ResolvedFunctionConfig,
  options: BuildFunctionArchiveOptions,
  warn: (message: string) => void,
  dev: { inlineSourcemap: boolean } = { inlineSourcemap: false },
): Promise<{ files: BundleFiles; origin: string; inputs: string[] }> {
  if (options.bundleFunction) {
    let bytes: unknown;
    try {
      bytes = await options.bundleFunction(fn);
    } catch (err) {
      if (err instanceof BundleError) throw err;
      throw bundleFailure(fn.slug, `bundleFunction threw: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (!(bytes instanceof Uint8Array)) {
      throw bundleFailure(fn.slug, "bundleFunction must resolve to the ZIP bytes as a Uint8Array");
    }
    return { files: await readForeignZip(fn.slug, bytes), origin: "the archive from bundleFunction", inputs: [] };
  }
  if (fn.bundler === "none") {
    const source = shippedSource(fn);
    const { files, warnings } = await collectPrebuilt(fn.slug, source);
    warnings.forEach(warn);
    const inputs = (await sourceKind(source)) === "directory" ? sortedPaths(files).map((path) => join(source, path)) : [source];
    return { files, origin: "the prebuilt source", inputs };
  }
  if (typeof fn.bundler === "function") {
    return { files: await runFileBundler(fn, fn.bundler), origin: "the custom bundler's output", inputs: [] };
  }
  const entry = await findEntry(fn.source);
  if (entry === null) {
    throw bundleFailure(
      fn.slug,
      `no entry file in ${fn.source}: add index.ts, index.js or index.mjs, or point source at the entry file`,
    );
  }
  const workingDir = options.workingDir ?? (await esbuildWorkingDir(fn, entry));
  const externals = await resolveExternals(fn.externalPackages, entry);
  const [output] = await runEsbuild({ entries: [entry], workingDir, sourcemap: dev.inlineSourcemap ? "inline" : fn.sourcemap === true, external: externals.external });
  output?.warnings.forEach(warn);
  (await undeclaredNativeWarnings(fn.slug, output?.inputs ?? [], externals.external)).forEach(warn);
  // svc dev loads external packages from the project's node_modules; a deployment ships them staged.
  const staged = dev.inlineSourcemap ? new Map<string, Uint8Array>() : await new PackageStager(undefined).stage(externals.packages);
  return { files: withStagedFiles(output?.files ?? new Map(), staged), origin: ESBUILD_ORIGIN, inputs: output?.inputs ?? [] };
}

/** `bundler: "none"` ships `sourcePath` when present (the engine always passes it), else `source`. */
function shippedSource(fn: ResolvedFunctionConfig): string {
  return typeof fn.sourcePath === "string" && fn.sourcePath !== "" ? fn.sourcePath : fn.source;
}

/** How a failure names esbuild's files. */
export const ESBUILD_ORIGIN = "the esbuild output";

/**
 * esbuild's working directory without one from the caller: the function's source directory, else the
 * entry's. `sourcePathKind`: what `fn.sourcePath` was when `entry` was found in it (`locateFunction`),
 * so it is not asked again; the entry of a file source is the file itself.
 */
export async function esbuildWorkingDir(fn: ResolvedFunctionConfig, entry: string, sourcePathKind?: "file" | "directory"): Promise<string> {
  if (sourcePathKind !== undefined && typeof fn.sourcePath === "string") return sourcePathKind === "directory" ? fn.sourcePath : dirname(entry);
  if (typeof fn.sourcePath === "string" && (await sourceKind(fn.sourcePath)) === "directory") return fn.sourcePath;
  if ((await sourceKind(fn.source)) === "directory") return fn.source;
  return dirname(entry);
}

/**
 * Checks archive files (safe paths, no file that is also a directory, a root entry, limits),
 * writes the canonical ZIP and digests it.
 */
export async function finishArchive(slug: string, files: BundleFiles, origin: string): Promise<FunctionArchive> {
  checkArchivePaths(slug, files, origin);
  const paths = sortedPaths(files);
  const sizes = paths.map((path) => ({ path, bytes: files.get(path)?.byteLength ?? 0 }));
  const unzippedBytes = sizes.reduce((sum, f) => sum + f.bytes, 0);
  const early = checkZipLimits({ zipBytes: 0, unzippedBytes, entries: paths.length });
  if (early.length > 0) throw bundleFailure(slug, early.map(describeZipLimitViolation).join("; "), { sizes });

  const zip = await writeCanonicalZip(files);
  const late = checkZipLimits({ zipBytes: zip.byteLength, unzippedBytes, entries: paths.length });
  if (late.length > 0) throw bundleFailure(slug, late.map(describeZipLimitViolation).join("; "), { sizes });

  return {
    slug,
    zip,
    zipSha256: sha256Hex(zip),
    zipBytes: zip.byteLength,
    unzippedBytes,
    entries: paths.length,
  };
}

/** Safe archive paths, no file that is also a directory, and a root entry; throws a `BundleError` naming the function. */
function checkArchivePaths(slug: string, files: BundleFiles, origin: string): void {
  const paths = sortedPaths(files);
  const problems: string[] = [];
  for (const path of paths) {
    const issue = zipEntryNameIssue(path);
    if (issue !== null) problems.push(`"${escapeUnsafeText(path)}": ${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]}`);
    else {
      const clash = parentDirectories(path).find((dir) => files.has(dir));
      if (clash !== undefined) problems.push(`"${escapeUnsafeText(clash)}" is both a file and a directory`);
    }
  }
  if (problems.length > 0) throw bundleFailure(slug, `${origin} has unsafe paths: ${problems.join("; ")}`);
  if (!ZIP_ROOT_ENTRIES.some((name) => files.has(name))) {
    const shown = paths.slice(0, 10).join(", ") || "no files";
    throw bundleFailure(slug, `${origin} has no index.mjs or index.js at its root (found: ${shown})`);
  }
}

/** `a/b/c.js` → `["a", "a/b"]`. */
function parentDirectories(path: string): string[] {
  const segments = path.split("/");
  return segments.slice(1).map((_, i) => segments.slice(0, i + 1).join("/"));
}
