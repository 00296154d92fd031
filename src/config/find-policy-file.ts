import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The file names a policy may have, in the order they are checked in each directory. */
export const POLICY_FILE_NAMES = ["svc.ts", "svc.mts", "svc.js", "svc.mjs"] as const;

/**
 * Why a search ended without a policy file: a directory holding `.git` (the repository root),
 * the `stopAt` directory, or the filesystem root.
 */
export type PolicySearchStopReason = "git" | "stopAt" | "root";

/** Where the walk starts and where it must end. Both paths are absolute. */
export interface PolicySearchOptions {
  /** Absolute directory the search starts in. */
  startDir: string;
  /** Absolute directory the search never goes above. */
  stopAt: string;
}

/** Outcome of a search: the file found, or every path checked and why the walk ended. */
export type PolicySearchResult =
  | { found: true; file: string; searched: string[] }
  | { found: false; searched: string[]; stoppedAt: string; stopReason: PolicySearchStopReason };

/**
 * Walks up from `startDir` looking for a policy file: in each directory the
 * names of {@link POLICY_FILE_NAMES} in order, the first regular file wins. The walk ends,
 * after searching the directory, at one that contains `.git` (file or folder), at `stopAt`, or
 * at the filesystem root. `package.json` does not end it. When `startDir` is not inside
 * `stopAt`, the walk never meets `stopAt` and ends at `.git` or the root.
 */
export function findPolicyFile(options: PolicySearchOptions): PolicySearchResult {
  const stopAt = resolve(options.stopAt);
  const searched: string[] = [];
  let dir = resolve(options.startDir);
  for (;;) {
    for (const name of POLICY_FILE_NAMES) {
      const candidate = join(dir, name);
      searched.push(candidate);
      if (isRegularFile(candidate)) return { found: true, file: candidate, searched };
    }
    if (existsSync(join(dir, ".git"))) return { found: false, searched, stoppedAt: dir, stopReason: "git" };
    if (dir === stopAt) return { found: false, searched, stoppedAt: dir, stopReason: "stopAt" };
    const parent = dirname(dir);
    if (parent === dir) return { found: false, searched, stoppedAt: dir, stopReason: "root" };
    dir = parent;
  }
}

/** What a path points at. */
export type PathKind = "file" | "directory" | "other" | "missing";

/** Classifies a path: a regular file, a directory, something else (a socket, a device), or missing. */
export function classifyPath(file: string): PathKind {
  try {
    const stats = statSync(file);
    if (stats.isFile()) return "file";
    return stats.isDirectory() ? "directory" : "other";
  } catch {
    return "missing";
  }
}

function isRegularFile(file: string): boolean {
  return classifyPath(file) === "file";
}
