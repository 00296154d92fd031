/**
 * Entry resolution: a file source is its own entry; a directory's entry is the
 * first regular file among `index.ts`, `index.js`, `index.mjs`.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedFunction, ResolvedFunctionConfig } from "../model/desired-state.js";

/** Entry file names searched in a directory source, in order. */
export const ENTRY_CANDIDATES: readonly string[] = Object.freeze(["index.ts", "index.js", "index.mjs"]);

/** What a source path is on disk. */
export type SourceKind = "file" | "directory" | "missing" | "other";

/**
 * Whether `path` is a file, a directory, missing, or something else (socket, device). Follows
 * symlinks. The stat is synchronous: a plan asks this of every function's source and entry, and a
 * thread-pool round trip each cost more than the stat.
 */
export async function sourceKind(path: string): Promise<SourceKind> {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return "missing";
    if (info.isFile()) return "file";
    if (info.isDirectory()) return "directory";
    return "other";
  } catch (err) {
    if (isMissing(err)) return "missing";
    throw err;
  }
}

/**
 * The entry file of a source: the source itself when it is a file, else the first regular file
 * among {@link ENTRY_CANDIDATES} in the directory; `null` when a directory has none.
 * Throws an Error naming the path when the source does not exist or is not a file or directory.
 */
export async function findEntry(source: string): Promise<string | null> {
  return (await searchEntry(source)).entry;
}

/** {@link findEntry}, with what the source was (a file or a directory) when it was searched. */
async function searchEntry(source: string): Promise<{ entry: string | null; kind: "file" | "directory" }> {
  const kind = await sourceKind(source);
  if (kind === "missing") {
    throw new Error(
      `source ${source} does not exist: check the function's source in the policy ` +
        "(relative paths resolve from the policy file's directory)",
    );
  }
  if (kind === "other") throw new Error(`source ${source} is neither a file nor a directory`);
  if (kind === "file") return { entry: source, kind };
  for (const name of ENTRY_CANDIDATES) {
    const candidate = join(source, name);
    if ((await sourceKind(candidate)) === "file") return { entry: candidate, kind };
  }
  return { entry: null, kind };
}

/**
 * The object given to bundlers: the resolved function plus `source`, its entry file.
 * A directory without an entry keeps the directory as `source`; the esbuild path reports it,
 * `bundler: "none"` explains what to ship instead, and a custom bundler may not need one.
 */
export async function toFunctionConfig(fn: ResolvedFunction): Promise<ResolvedFunctionConfig> {
  return (await locateFunction(fn)).config;
}

/** A function's bundler input and its entry file (`null` for a directory without one). */
export interface LocatedFunction {
  config: ResolvedFunctionConfig;
  entry: string | null;
  /** What `config.sourcePath` was when its entry was searched: decides esbuild's working directory without another stat. */
  sourceKind?: "file" | "directory";
}

/** {@link toFunctionConfig}, keeping the entry found and what the source was, so nothing needs to look for them again. */
export async function locateFunction(fn: ResolvedFunction): Promise<LocatedFunction> {
  const found = await searchEntry(fn.sourcePath);
  return { config: { ...fn, source: found.entry ?? fn.sourcePath }, entry: found.entry, sourceKind: found.kind };
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
