/**
 * Which version of an external package the project has installed: the
 * `node_modules/<name>/package.json` nearest the function's entry, as Node.js and esbuild would
 * resolve it. Offline (reads files only); `svc config validate` and the bundle's cache key use it.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ResolvedExternalPackage } from "../model/desired-state.js";

/** An external package as installed in the project. */
export interface InstalledPackage {
  name: string;
  /** The `version` of its `package.json`. */
  version: string;
  /** Whether its files are staged into the archive (`includeFiles`). */
  includeFiles: boolean;
}

/** Why a declared package cannot be staged: not found, or a `package.json` without a version. */
export interface MissingPackage {
  name: string;
  /** A sentence naming the package and the fix. */
  message: string;
}

/**
 * The installed version of `name`, looking in `node_modules/` of `fromDir` and every directory
 * above it; `undefined` when no readable `package.json` with a string `version` is found.
 */
export async function installedVersion(name: string, fromDir: string): Promise<string | undefined> {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = await readFile(join(dir, "node_modules", ...name.split("/"), "package.json"), "utf8").catch(() => undefined);
    if (manifest !== undefined) {
      const version = versionOf(manifest);
      if (version !== undefined) return version;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function versionOf(manifest: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(manifest);
    const version = typeof parsed === "object" && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
    // A version is handed to npm as `<name>@<version>`: only a plain semver string may pass.
    return typeof version === "string" && /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every declared package with its installed version (packages that are only external need none),
 * or the packages that are missing, each with a message naming the fix.
 */
export async function installedPackages(
  packages: readonly ResolvedExternalPackage[],
  fromDir: string,
): Promise<{ installed: InstalledPackage[]; missing: MissingPackage[] }> {
  const installed: InstalledPackage[] = [];
  const missing: MissingPackage[] = [];
  for (const pkg of packages) {
    if (!pkg.includeFiles) {
      installed.push({ name: pkg.name, version: "", includeFiles: false });
      continue;
    }
    const version = await installedVersion(pkg.name, fromDir);
    if (version === undefined) {
      missing.push({
        name: pkg.name,
        message: `external package ${pkg.name} is not installed in the project (no node_modules/${pkg.name}/package.json with a version above ${fromDir}): run npm install ${pkg.name}, since the installed version is the one staged`,
      });
    } else installed.push({ name: pkg.name, version, includeFiles: true });
  }
  return { installed, missing };
}
