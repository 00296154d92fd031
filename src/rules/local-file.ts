/**
 * What a local write may target, and the one way files are written: the CLI's `--write-env`,
 * `--out`, `pull --write` and `--file`, and the env file `svc db` and `instantPostgres()` write.
 * A target is a regular file or absent, in an existing writable directory; a symbolic link, a
 * directory, a FIFO or a device is refused rather than followed or replaced. Leaf module: node
 * built-ins only.
 */
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, lstatSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";

function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return "is a directory";
  if (stats.isFIFO()) return "is a FIFO (named pipe)";
  if (stats.isSocket()) return "is a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "is a device";
  return "is not a regular file";
}

function writable(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `path` cannot take a write, as a phrase after the path ("is a symbolic link to …"), or
 * `null` when it can. A symbolic link is refused, never followed: written through, a link a
 * repository carries (`.env -> ~/.bashrc`) would send the write outside the project.
 */
export function localWriteIssue(path: string): string | null {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return `cannot be inspected (${(err as Error).message})`;
  }
  if (stats?.isSymbolicLink() === true) {
    let target = "?";
    try {
      target = readlinkSync(path);
    } catch {
      // the link's target is only for the message
    }
    return `is a symbolic link (to ${target}); svc writes only regular files, so give the path of the file itself`;
  }
  if (stats !== undefined) {
    const kind = kindOf(stats);
    if (kind !== null) return kind;
    if (!writable(path, constants.W_OK)) return "is not writable";
  }
  const dir = dirname(path);
  let dirStats: Stats;
  try {
    dirStats = statSync(dir);
  } catch {
    return `is in a directory that does not exist (${dir})`;
  }
  if (!dirStats.isDirectory()) return `is in ${dir}, which is not a directory`;
  if (!writable(dir, constants.W_OK | constants.X_OK)) return `is in a directory svc cannot write to (${dir})`;
  return null;
}

/** Options of {@link writeFileAtomically}. */
export interface AtomicWriteOptions {
  /** The file's mode, whether it is new or replaces one. @default an existing file's own mode, else `newMode` */
  readonly mode?: number;
  /** A new file's mode when `mode` is not set. @default 0o600 */
  readonly newMode?: number;
}

/**
 * Writes `content` to `path` atomically (a temporary sibling, then a rename, so a reader never
 * sees half a file), after checking {@link localWriteIssue} again. Throws an `Error` whose
 * message is the issue, or the system's error; returns the mode the file had (null when new).
 */
export function writeFileAtomically(path: string, content: string, options: AtomicWriteOptions = {}): number | null {
  const issue = localWriteIssue(path);
  if (issue !== null) throw new Error(issue);
  let previous: number | null = null;
  try {
    previous = lstatSync(path).mode & 0o7777;
  } catch {
    // a new file
  }
  const mode = options.mode ?? previous ?? options.newMode ?? 0o600;
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, content, { mode, flag: "wx" });
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return previous;
}
