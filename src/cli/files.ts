/**
 * Local effects are checked before remote ones. Every file a command will write (`--write-env`,
 * `plan --out`, `pull --write`, `connection-string --file`, `svc db`'s env file) is checked here,
 * before the command reads or changes anything on the platform: a regular file or absent, in an
 * existing writable directory, never a symbolic link, a directory or a FIFO (`localWriteIssue`),
 * and never the policy file or a file the policy imports. Writes go through `writeLocalFile`, so
 * a failure after a successful apply is reported as such (exit 7), never as "nothing applied".
 */
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { loadEsbuild } from "../bundle/lazy-modules.js";
import { findPolicyFile } from "../config/find-policy-file.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import { localWriteIssue, writeFileAtomically, type AtomicWriteOptions } from "../rules/local-file.js";
import { shown } from "./views/outside-text.js";

/** A file a command will write. */
export interface LocalWrite {
  /** The flag that names it, for messages (`--write-env`, `--out`). */
  readonly flag: string;
  /** The path as the user gave it. */
  readonly display: string;
  /** The absolute path. */
  readonly path: string;
  /** `pull --write`: the write replaces the policy file on purpose. */
  readonly replacesPolicy?: boolean;
}

/** Extensions esbuild loads by default: the files a policy can import. */
const IMPORTABLE = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".json"]);

/** A {@link LocalWrite} for a path given on the command line. */
export function localWrite(cwd: string, flag: string, given: string): LocalWrite {
  return { flag, display: given, path: resolve(cwd, given) };
}

/**
 * The policy file a command in `cwd` uses: `--config`, else the one the search finds (walking up
 * to the repository root or the home directory, as the loader does), else none.
 */
export function policyFileFor(cwd: string, config: string | undefined): string | undefined {
  if (config !== undefined) return resolve(cwd, config);
  const found = findPolicyFile({ startDir: cwd, stopAt: homedir() });
  return found.found ? found.file : undefined;
}

/** A path with its directory's symbolic links resolved, so two spellings of one file compare equal. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * The local files a policy reads: the policy file and every file it imports, statically
 * (`import`, `require` of a literal path; packages are not followed). Found with esbuild's
 * metafile without running the policy; a policy esbuild cannot read is just itself.
 */
export async function policyFiles(policyPath: string): Promise<string[]> {
  const files = [policyPath];
  if (!existsSync(policyPath)) return files;
  try {
    const esbuild = await loadEsbuild();
    const built = await esbuild.build({ entryPoints: [policyPath], absWorkingDir: dirname(policyPath), bundle: true, write: false, metafile: true, platform: "node", format: "esm", packages: "external", logLevel: "silent" });
    for (const input of Object.keys(built.metafile?.inputs ?? {})) files.push(resolve(dirname(policyPath), input));
  } catch {
    // Unreadable for esbuild (a syntax error): the load reports it; the policy file is still protected.
  }
  return [...new Set(files)];
}

/**
 * Checks every file a command will write before anything else happens; the first refusal is
 * `CLI_LOCAL_WRITE_REFUSED` (exit 1) naming the flag, the path and why, and nothing was read
 * from or changed on the platform. `config` is `--config`; the policy it names (or the one the
 * search finds) and its imports are never a target, unless a write `replacesPolicy`.
 */
export async function checkLocalWrites(cwd: string, writes: readonly LocalWrite[], config: string | undefined): Promise<void> {
  if (writes.length === 0) return;
  const policy = policyFileFor(cwd, config);
  // Only an existing module or JSON file can be imported: the esbuild pass runs just for those.
  const importable = writes.some((w) => IMPORTABLE.has(extname(w.path).toLowerCase()) && existsSync(w.path));
  const read = policy === undefined ? [] : importable ? await policyFiles(policy) : [policy];
  const protectedFiles = new Map(read.map((file) => [canonical(file), file]));
  for (const write of writes) {
    const issue = localWriteIssue(write.path);
    if (issue !== null) throw refused(write, `it ${issue}`);
    const policyFile = protectedFiles.get(canonical(write.path));
    if (policyFile !== undefined && !(write.replacesPolicy === true && policyFile === policy)) {
      const policyName = relative(cwd, policy ?? policyFile) || basename(policyFile);
      throw refused(write, policyFile === policy ? "it is the policy file" : `${shown(policyName)} imports it (${shown(policyFile)})`);
    }
  }
}

function refused(write: LocalWrite, why: string): CliError {
  return new CliError(CliErrorCode.LOCAL_WRITE_REFUSED, `${write.flag} ${shown(write.display)}: ${why}; nothing was read or changed.`, {
    hint: "Name a regular file in a writable directory, other than the policy and the files it imports.",
    details: { flag: write.flag, file: write.display },
  });
}

/** Whether the command had changed the platform when a local write failed. */
export interface LocalWriteContext {
  /** What was applied or created before the write (`branch preview/x`); omit when nothing was. */
  readonly applied?: string;
}

/**
 * Writes a checked file atomically (`writeFileAtomically`, with its mode options). A failure is
 * `CLI_LOCAL_WRITE_FAILED`: exit 7 with "applied; the local file was not written" when the
 * platform had changed, else exit 1.
 */
export function writeLocalFile(write: LocalWrite, content: string, options: AtomicWriteOptions, context: LocalWriteContext = {}): void {
  try {
    writeFileAtomically(write.path, content, options);
  } catch (err) {
    throw localWriteFailed(write.display, (err as Error).message, context, err);
  }
}

/** The error of a local write that failed after the checks passed (the disk filled, a race). */
export function localWriteFailed(display: string, reason: string, context: LocalWriteContext, cause?: unknown): CliError {
  const head = context.applied === undefined ? `${shown(display)} was not written` : `Applied to ${context.applied}; the local file ${shown(display)} was not written`;
  return new CliError(CliErrorCode.LOCAL_WRITE_FAILED, `${head}: ${shown(reason)}.`, {
    hint: context.applied === undefined ? "Fix the file's location and run the command again." : "The platform has the changes; fix the file's location and run the command again to write it (nothing is left to apply).",
    details: { file: display, applied: context.applied !== undefined },
    ...(cause === undefined ? {} : { cause }),
  });
}
