/**
 * Lazy loaders for the heavy bundling dependencies: esbuild is imported only when a function is
 * actually bundled, jszip only when an archive is read back; importing `svc-config/v1` never
 * loads them (nor pako, loaded by `raw-deflate.ts` when the first archive is written).
 */
import { createRequire } from "node:module";
import type * as Esbuild from "esbuild";
import type JSZip from "jszip";

/** The esbuild API, as this module uses it. */
export type EsbuildApi = Pick<typeof Esbuild, "build">;

/** The jszip constructor. */
export type JSZipConstructor = typeof JSZip;

let esbuildPromise: Promise<EsbuildApi> | undefined;
let jszipPromise: Promise<JSZipConstructor> | undefined;

function missing(pkg: string, cause: unknown): Error {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Error(`${pkg} could not be loaded (${why}): install it with \`npm install ${pkg}\``, { cause });
}

/**
 * esbuild's API from its imported namespace: its named exports, else its `default` (esbuild is a
 * CommonJS package). With esbuild installed through symlinks (pnpm's layout), the import has given
 * a second, empty instance of the package, whose `build` is missing: the ESM resolver returned the
 * link's path while the policy loader had already required the package by its real path (seen in
 * a plan where one function's entry was a FIFO: every other function then failed with
 * "esbuild.build is not a function"). Then the package is taken from `require`, which resolves it
 * by its real path and so gives the instance already loaded.
 */
function esbuildApi(mod: Partial<EsbuildApi> & { default?: Partial<EsbuildApi> }): EsbuildApi {
  if (typeof mod.build === "function") return mod as EsbuildApi;
  if (typeof mod.default?.build === "function") return mod.default as EsbuildApi;
  const required = createRequire(import.meta.url)("esbuild") as Partial<EsbuildApi>;
  if (typeof required.build === "function") return required as EsbuildApi;
  throw new Error("the esbuild package loaded has no build function");
}

/** Loads esbuild once per process; rejects with an install hint when absent. */
export function loadEsbuild(): Promise<EsbuildApi> {
  esbuildPromise ??= import("esbuild")
    .then((mod) => esbuildApi(mod as Partial<EsbuildApi> & { default?: Partial<EsbuildApi> }))
    .catch((err: unknown) => {
      esbuildPromise = undefined;
      throw missing("esbuild", err);
    });
  return esbuildPromise;
}

/** Loads jszip once per process; rejects with an install hint when absent. */
export function loadJszip(): Promise<JSZipConstructor> {
  jszipPromise ??= import("jszip").then(
    (mod: { default: JSZipConstructor }) => mod.default,
    (err: unknown) => {
      jszipPromise = undefined;
      throw missing("jszip", err);
    },
  );
  return jszipPromise;
}

/**
 * The installed esbuild's version, read from its package.json without loading esbuild (a warm
 * archive cache never needs the bundler itself); `undefined` when esbuild is not installed.
 */
export function esbuildVersion(): string | undefined {
  if (installedEsbuild === null) {
    try {
      const manifest: unknown = createRequire(import.meta.url)("esbuild/package.json");
      const version = (manifest as { version?: unknown }).version;
      installedEsbuild = typeof version === "string" ? version : undefined;
    } catch {
      installedEsbuild = undefined;
    }
  }
  return installedEsbuild;
}

/** `null` until {@link esbuildVersion} first looks. */
let installedEsbuild: string | undefined | null = null;
