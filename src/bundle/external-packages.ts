/**
 * External packages of an esbuild function: esbuild leaves them out (`external`), and the archive
 * ships them under `node_modules/`, staged for linux/arm64/glibc at the version installed in the
 * project. A {@link PackageStager} stages each distinct set of packages once per bundling run and
 * keeps the staged files in the cache directory, keyed by the packages' names and versions, so
 * a warm cache never runs npm.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { ResolvedExternalPackage } from "../model/desired-state.js";
import { sha256Hex } from "./archive-cache.js";
import { writeAtomicInThreadPool } from "./atomic-write.js";
import { readForeignZip, writeCanonicalZip } from "./canonical-zip.js";
import { foreignBinaryIssue } from "./external-packages-binaries.js";
import { installedPackages, type InstalledPackage } from "./external-packages-installed.js";
import { installForRuntime, STAGING_PLATFORM, StagingError } from "./external-packages-stage.js";
import { collectStagedFiles } from "./external-packages-trace.js";

/** The names esbuild marks external for a function (each covers its subpaths too). */
export function externalNames(packages: readonly ResolvedExternalPackage[] | undefined): string[] {
  return (packages ?? []).map((p) => p.name);
}

/** Bumped when what a staged entry holds changes. */
const STAGED_FORMAT = "staged-v1";

/** Stages external packages, once per distinct set in this run, through the cache directory when given. */
export class PackageStager {
  private readonly inFlight = new Map<string, Promise<Map<string, Uint8Array>>>();
  private readonly dir: string | undefined;

  /** @param cacheDir the bundle cache directory; staged files live beside the archives. */
  constructor(cacheDir: string | undefined) {
    this.dir = cacheDir === undefined ? undefined : join(resolve(cacheDir), "v1");
  }

  /**
   * The files to ship for `packages` (those with `includeFiles`), by archive path
   * (`node_modules/…`); an empty map when none is staged. Rejects with a `StagingError`.
   */
  stage(packages: readonly InstalledPackage[]): Promise<Map<string, Uint8Array>> {
    const staged = packages.filter((p) => p.includeFiles).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (staged.length === 0) return Promise.resolve(new Map());
    const key = stagedKey(staged);
    let files = this.inFlight.get(key);
    if (files === undefined) {
      files = this.lookup(key).then((hit) => hit ?? this.stageFresh(key, staged));
      this.inFlight.set(key, files);
      files.catch(() => this.inFlight.delete(key));
    }
    return files;
  }

  private async stageFresh(key: string, packages: readonly InstalledPackage[]): Promise<Map<string, Uint8Array>> {
    const dir = await mkdtemp(join(tmpdir(), "svc-config-stage-"));
    try {
      await installForRuntime(packages, dir);
      const files = await collectStagedFiles(dir, packages);
      await this.store(key, files);
      return files;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The cached files of `key`, or `undefined` (absent, corrupt, or a binary that no longer passes). */
  private async lookup(key: string): Promise<Map<string, Uint8Array> | undefined> {
    if (this.dir === undefined) return undefined;
    try {
      const record = JSON.parse(await readFile(join(this.dir, `${key}.json`), "utf8")) as { zipSha256?: unknown };
      if (typeof record.zipSha256 !== "string" || !/^[0-9a-f]{64}$/.test(record.zipSha256)) return undefined;
      const zip = await readFile(join(this.dir, `${record.zipSha256}.zip`));
      if (sha256Hex(zip) !== record.zipSha256) return undefined;
      const files = await readForeignZip("staged", new Uint8Array(zip));
      for (const [path, bytes] of files) if (foreignBinaryIssue(path, bytes) !== null) return undefined;
      return files;
    } catch {
      return undefined;
    }
  }

  /** Writes the staged files as a canonical ZIP, then the record naming it. Never throws. */
  private async store(key: string, files: Map<string, Uint8Array>): Promise<void> {
    if (this.dir === undefined) return;
    try {
      const zip = await writeCanonicalZip(files);
      const zipSha256 = sha256Hex(zip);
      const dir = this.dir;
      // The record only once the archive it names is complete.
      if (await writeAtomicInThreadPool(dir, join(dir, `${zipSha256}.zip`), zip)) await writeAtomicInThreadPool(dir, join(dir, `${key}.json`), Buffer.from(JSON.stringify({ zipSha256 })));
    } catch {
      // The cache only saves time.
    }
  }
}

/** The cache key of a staged set: the format, the runtime, and each package's name and version. */
export function stagedKey(packages: readonly InstalledPackage[]): string {
  return sha256Hex(JSON.stringify({ format: STAGED_FORMAT, platform: STAGING_PLATFORM, packages: packages.map((p) => [p.name, p.version]) }));
}


/** What an esbuild function's `externalPackages` need: the names esbuild leaves out, and the installed packages. */
export interface FunctionExternals {
  external: string[];
  packages: InstalledPackage[];
}

/**
 * The externals of a function whose entry is `entry`, with the versions installed in the project.
 * Throws a `StagingError` (`not-installed`) naming every package to install first.
 */
export async function resolveExternals(packages: readonly ResolvedExternalPackage[] | undefined, entry: string): Promise<FunctionExternals> {
  if (packages === undefined || packages.length === 0) return { external: [], packages: [] };
  const { installed, missing } = await installedPackages(packages, dirname(entry));
  if (missing.length > 0) throw new StagingError("not-installed", missing.map((m) => m.message).join("; "));
  return { external: externalNames(packages), packages: installed };
}

/** `files` (esbuild's output) with the staged package files added. */
export function withStagedFiles(files: ReadonlyMap<string, Uint8Array>, staged: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> {
  return new Map([...files, ...staged]);
}
