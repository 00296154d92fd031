/**
 * What of a staged install ships: the files each package's entry needs, traced with
 * `@vercel/nft` (loaded on first use), plus every platform package npm installed for it
 * (the napi-rs and esbuild pattern: `@scope/pkg-linux-arm64-gnu`, found at run time by a
 * `process.platform` switch a static trace may not follow), each checked by the binary rule.
 */
import { createRequire } from "node:module";
import { lstat, readFile, readdir, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ZIP_LIMITS } from "../rules/zip-entries.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import { foreignBinaryIssue } from "./external-packages-binaries.js";
import type { InstalledPackage } from "./external-packages-installed.js";
import { StagingError } from "./external-packages-stage.js";

/** Platform names in the optional dependencies of packages that publish one build per platform. */
const PLATFORM_PACKAGE = /(?:^|[-/.])(?:linux|darwin|win32|freebsd|android|openbsd|netbsd|sunos|aix)(?:$|[-.])/;

/** The same, for the runtime this stages for. */
const RUNTIME_PACKAGE = /(?:^|[-/.])linux-arm64(?:$|[-.])(?!.*musl)/;

/**
 * The staged files to ship, by archive path (`node_modules/…`). Throws a {@link StagingError}
 * when a package publishes platform builds but none for linux/arm64/glibc, when a shipped binary
 * is foreign (naming every such file), or when the files exceed the archive limits.
 */
export async function collectStagedFiles(dir: string, packages: readonly InstalledPackage[]): Promise<Map<string, Uint8Array>> {
  const paths = new Set<string>();
  for (const pkg of packages) {
    const manifest = await readManifest(dir, pkg.name);
    for (const entry of await packageEntries(dir, pkg.name, manifest)) paths.add(relativePosix(dir, entry));
    paths.add(`node_modules/${pkg.name}/package.json`);
    for (const platformPackage of await platformPackagesOf(dir, pkg, manifest)) {
      for (const file of await filesUnder(join(dir, "node_modules", ...platformPackage.split("/")))) paths.add(relativePosix(dir, file));
    }
  }
  const { nodeFileTrace } = await import("@vercel/nft");
  const traced = await nodeFileTrace([...paths].filter((p) => /\.[cm]?js$/.test(p)).map((p) => join(dir, p)), { base: dir, processCwd: dir });
  for (const path of traced.fileList) paths.add(path.split(sep).join("/"));
  return readShipped(dir, [...paths].filter(isShippable).sort());
}

/** Only files inside the staged `node_modules/`, never npm's own bookkeeping or `.bin` links. */
function isShippable(path: string): boolean {
  return path.startsWith("node_modules/") && !path.startsWith("node_modules/.") && !path.includes("/.bin/");
}

type Manifest = { main?: unknown; module?: unknown; exports?: unknown; optionalDependencies?: unknown };

async function readManifest(dir: string, name: string): Promise<Manifest> {
  try {
    return JSON.parse(await readFile(join(dir, "node_modules", ...name.split("/"), "package.json"), "utf8")) as Manifest;
  } catch {
    throw new StagingError("npm-failed", `npm reported success but ${name} is not in the staged node_modules: retry, or check the npm configuration (.npmrc)`);
  }
}

/**
 * The files Node.js loads for `import "<name>"` and `require("<name>")`: CommonJS resolution
 * first, then the package's `exports` (import and default conditions), `module` and `main`.
 */
async function packageEntries(dir: string, name: string, manifest: Manifest): Promise<string[]> {
  const entries = new Set<string>();
  try {
    entries.add(createRequire(join(dir, "package.json")).resolve(name));
  } catch {
    // ESM-only or type-only: the manifest fields below name the entry.
  }
  const root = join(dir, "node_modules", ...name.split("/"));
  for (const target of [rootExport(manifest.exports), manifest.module, manifest.main]) {
    if (typeof target !== "string") continue;
    const file = join(root, target);
    if (file.startsWith(root + sep) && (await isFile(file))) entries.add(file);
  }
  return [...entries];
}

/** The path `exports` maps `.` to under the `node`, `import` or `default` condition. */
function rootExport(exports: unknown): unknown {
  if (typeof exports === "string" || exports === null || typeof exports !== "object") return exports;
  const map = exports as Record<string, unknown>;
  const root = "." in map ? map["."] : map;
  if (typeof root === "string" || root === null || typeof root !== "object") return root;
  const conditions = root as Record<string, unknown>;
  for (const condition of ["node", "import", "default"]) {
    const found = rootExport(conditions[condition]);
    if (typeof found === "string") return found;
  }
  return undefined;
}

/**
 * The platform packages npm installed for `pkg` (its optional dependencies named after a
 * platform). A package that declares platform builds but got none for this runtime has no build
 * for it: a {@link StagingError}.
 */
async function platformPackagesOf(dir: string, pkg: InstalledPackage, manifest: Manifest): Promise<string[]> {
  const optional = manifest.optionalDependencies;
  const names = typeof optional === "object" && optional !== null ? Object.keys(optional).filter((n) => PLATFORM_PACKAGE.test(n)) : [];
  const installed: string[] = [];
  for (const name of names) {
    if (await isFile(join(dir, "node_modules", ...name.split("/"), "package.json"))) installed.push(name);
  }
  if (names.length > 0 && !installed.some((n) => RUNTIME_PACKAGE.test(n))) {
    throw new StagingError(
      "no-runtime-build",
      `${pkg.name}@${pkg.version} publishes builds for ${names.length} platforms but none for linux/arm64/glibc: use a version that publishes one, or set includeFiles: false if the runtime provides it`,
    );
  }
  // Platform packages npm should not have installed (no `os`/`cpu` in their manifest) ship only if traced.
  return installed.filter((n) => RUNTIME_PACKAGE.test(n));
}

/** Every regular file under `root` (a staged package directory). */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

/**
 * Reads the shipped files, checking the archive limits on sizes before reading contents and the
 * binary rule on every file. Symlinks are followed only inside the staging directory.
 */
async function readShipped(dir: string, paths: readonly string[]): Promise<Map<string, Uint8Array>> {
  if (paths.length > ZIP_LIMITS.maxEntries) {
    throw new StagingError("npm-failed", `the staged packages have ${paths.length} files (an archive holds at most ${ZIP_LIMITS.maxEntries}): stage fewer packages`);
  }
  const root = await realpath(dir);
  const files = new Map<string, Uint8Array>();
  const foreign: string[] = [];
  let total = 0;
  for (const path of paths) {
    const target = await realpath(join(dir, path)).catch(() => undefined);
    if (target === undefined || !target.startsWith(root + sep)) continue;
    const info = await lstat(target);
    if (!info.isFile()) continue;
    total += info.size;
    if (total > ZIP_LIMITS.maxUnzippedBytes) {
      throw new StagingError("npm-failed", `the staged packages exceed ${ZIP_LIMITS.maxUnzippedBytes / (1024 * 1024)} MiB uncompressed (the archive limit) at ${escapeUnsafeText(path)}: stage fewer or smaller packages`);
    }
    const bytes = new Uint8Array(await readFile(target));
    const issue = foreignBinaryIssue(path, bytes);
    if (issue !== null) foreign.push(`${escapeUnsafeText(path)} ${issue}`);
    files.set(path, bytes);
  }
  if (foreign.length > 0) {
    throw new StagingError("foreign-binary", `the platform runs linux/arm64 with glibc, but ${foreign.join("; ")}: use a package that publishes a linux-arm64-gnu build (install scripts never run, so nothing is compiled)`);
  }
  return files;
}

async function isFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() === true;
}

function relativePosix(dir: string, path: string): string {
  return relative(dir, path).split(sep).join("/");
}
