/**
 * `--write-env FILE` (with `--env-prefix`): after a successful apply, create, sync or
 * connection-string run, the CLI sets the branch's connection strings and function URLs in a
 * dotenv file with the writer `svc db` uses. The library never writes files; this module does.
 */
import type { PlatformApi } from "../api/platform-api.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import { readEnvFile, withEnvFileLock, writeEnvFileAtomic } from "../instant/env-file.js";
import { isGitIgnored, notIgnoredWarning } from "../instant/git-ignore.js";
import { chooseBranchDatabase, type BranchDatabaseChoice } from "./branch-database.js";
import type { CommandContext } from "./context.js";
import { checkLocalWrites, localWrite, localWriteFailed } from "./files.js";
import { upsertEnvText, type EnvEntry } from "./env-upsert.js";

/** Flags of the commands that take `--write-env`. */
export interface WriteEnvFlags {
  /** The dotenv file to set the variables in. */
  writeEnv?: string;
  /** Prepended to every variable name. @default "" */
  envPrefix?: string;
}

/** The branch whose variables are written, and how to pick its database (`branch-database.ts`). */
export interface BranchEnvTarget extends Omit<BranchDatabaseChoice, "consequence"> {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  /** What the command changed before the write (`branch preview/x`): a failure then exits 7. */
  applied?: string;
}

/** Writes the variables of a branch; made by {@link prepareEnvWriter} before anything runs. */
export interface EnvWriter {
  write(target: BranchEnvTarget): Promise<void>;
}

const PREFIX = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The mode of a file `--write-env` wrote, new or existing: only its owner reads the credentials. */
const ENV_FILE_MODE = 0o600;

/** `SVC_FUNCTION_<SLUG>_URL`: the slug upper-cased, anything but letters and digits as `_`. */
export function functionUrlKey(prefix: string, slug: string): string {
  return `${prefix}SVC_FUNCTION_${slug.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_URL`;
}

/**
 * Checks `--write-env` and `--env-prefix` before anything runs (a typo must not surface only after
 * an apply): the prefix's characters, that the file may be written (`checkLocalWrites`: a regular
 * file or absent, in a writable directory, not a symbolic link, not the policy `config` names or
 * a file it imports) and reads as text. Returns undefined without `--write-env`; `--env-prefix`
 * alone is a usage error. A write that fails after the command changed the platform exits 7.
 */
export async function prepareEnvWriter(ctx: CommandContext, flags: WriteEnvFlags & { config?: string }): Promise<EnvWriter | undefined> {
  const prefix = flags.envPrefix ?? "";
  if (flags.writeEnv === undefined) {
    if (flags.envPrefix !== undefined) throw new CliError(CliErrorCode.USAGE, "--env-prefix needs --write-env FILE.", { hint: "Add --write-env .env, or drop --env-prefix." });
    return undefined;
  }
  if (prefix !== "" && !PREFIX.test(prefix)) {
    throw new CliError(CliErrorCode.USAGE, `--env-prefix ${JSON.stringify(prefix)} is not a variable-name prefix.`, { hint: "Use letters, digits and _, not starting with a digit, e.g. --env-prefix PREVIEW_." });
  }
  const display = flags.writeEnv;
  const envFile = localWrite(ctx.io.cwd, "--write-env", display);
  const file = envFile.path;
  await checkLocalWrites(ctx.io.cwd, [envFile], flags.config);
  await readEnvFile(file, display);
  const writeVariables = async (target: BranchEnvTarget): Promise<void> => {
    const { api, projectId, branchId } = target;
    const [databases, functions] = await Promise.all([api.listDatabases({ projectId, branchId }), api.listFunctions({ projectId, branchId })]);
    const { database, role } = chooseBranchDatabase(databases, { ...target, consequence: "the env file was not written" });
    const uri = (pooled: boolean): Promise<string> => api.getConnectionUri({ projectId, branchId, databaseName: database, roleName: role, ...(pooled ? { pooled: true } : {}) });
    const [pooledUri, directUri] = await Promise.all([uri(true), uri(false)]);
    ctx.scrubber.add(pooledUri, directUri, passwordOf(pooledUri), passwordOf(directUri));
    const urls = functions
      .filter((f) => f.invocation_url !== "")
      .map((f) => ({ name: functionUrlKey(prefix, f.slug), value: f.invocation_url }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: EnvEntry[] = [{ name: `${prefix}DATABASE_URL`, value: pooledUri }, { name: `${prefix}DATABASE_URL_DIRECT`, value: directUri }, ...urls];
    const wanted = new Set(entries.map((e) => e.name));
    const stale = new RegExp(`^${prefix}SVC_FUNCTION_[A-Z0-9_]+_URL$`);
    const previousMode = await withEnvFileLock(file, async () => {
      const state = await readEnvFile(file, display);
      const text = upsertEnvText(state.text, entries, {
        header: `svc: branch ${target.branchName} (${branchId}), database ${database}, role ${role}`,
        isStale: (name) => stale.test(name) && !wanted.has(name),
      });
      return writeEnvFileAtomic(file, text, display, { mode: ENV_FILE_MODE });
    });
    const fnPart = urls.length === 0 ? "" : ` and ${urls.length} function URL${urls.length === 1 ? "" : "s"}`;
    ctx.info([`Wrote ${prefix}DATABASE_URL (pooled), ${prefix}DATABASE_URL_DIRECT (database ${database}, role ${role})${fnPart} for branch ${target.branchName} to ${display}`]);
    if (previousMode !== null && previousMode !== ENV_FILE_MODE) ctx.info([`${display} had mode ${previousMode.toString(8).padStart(4, "0")}; it now has ${ENV_FILE_MODE.toString(8).padStart(4, "0")} (it holds credentials)`]);
    if ((await isGitIgnored(file)) === false) ctx.err([`warning: ${notIgnoredWarning(display)}`]);
  };
  return {
    write: async (target) => {
      try {
        await writeVariables(target);
      } catch (err) {
        if (target.applied === undefined) throw err;
        throw localWriteFailed(display, (err as Error).message, { applied: target.applied }, err);
      }
    },
  };
}

/** The password of a connection URI, decoded; undefined when it has none. */
export function passwordOf(uri: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(uri).password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}
