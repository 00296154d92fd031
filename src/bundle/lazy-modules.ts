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

/** Loads esbuild once per process; rejects with an install hint when absent. */
export function loadEsbuild(): Promise<EsbuildApi> {
  esbuildPromise ??= import("esbuild").then(
    (mod) => (typeof mod.build === "function" ? mod : mod.default),
    (err: unknown) => {
      esbuildPromise = undefined;
      throw missing("esbuild", err);
    },
  );
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
