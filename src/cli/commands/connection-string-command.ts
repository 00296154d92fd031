/**
 * `svc branch connection-string`: the one command that outputs a secret, because it was asked to.
 * Which database and role the URI is for follows the one rule of `branch-database.ts`, with the
 * databases the policy declares (when a policy file is found) coming first.
 */
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { isPlatformError } from "../../errors/platform-error.js";
import { chooseBranchDatabase, declaredDatabasesOf } from "../branch-database.js";
import type { CommandContext } from "../context.js";
import type { EnginePort } from "../engine-port.js";
import { checkLocalWrites, localWrite, writeLocalFile } from "../files.js";
import { resolveBranch, type TargetFlags } from "../target.js";
import { prepareEnvWriter, type WriteEnvFlags } from "../write-env.js";
import { connect, echoInfo, loadEnv, loadPolicy, printEcho, type PolicyFlags } from "./target-setup.js";

/** Flags of `svc branch connection-string`. */
export interface ConnectionStringFlags extends TargetFlags, WriteEnvFlags, PolicyFlags {
  pooled?: boolean;
  file?: string;
  database?: string;
  role?: string;
}

/**
 * The databases the policy declares, for the choice of database. None when `--database` names it,
 * or when no policy file is found (a branch's URI needs no policy); a policy that is found but
 * fails to load is an error, never a silent fall-back to another database.
 */
export async function declaredDatabases(ctx: CommandContext, engine: EnginePort, flags: Pick<ConnectionStringFlags, "database" | "config" | "env" | "evalTimeout">): Promise<string[]> {
  if (flags.database !== undefined) return [];
  try {
    return declaredDatabasesOf((await loadPolicy(ctx, engine, flags)).config);
  } catch (err) {
    const notFound = isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED) && Array.isArray((err.details as { searched?: unknown }).searched);
    if (flags.config === undefined && notFound) return [];
    throw err;
  }
}

/**
 * The URI is stdout's only content, or goes to `--file` (atomic, mode 0600); never to errors or
 * logs. With `--write-env FILE`, the branch's variables go to that env file instead. `ref`, the
 * command's argument, names the branch as `--branch` does; both at once must agree.
 */
export async function runConnectionString(ctx: CommandContext, given: ConnectionStringFlags, ref?: string): Promise<number> {
  if (ref !== undefined && given.branch !== undefined && given.branch !== ref) {
    throw new CliError(CliErrorCode.USAGE, `the branch is given twice: ${JSON.stringify(ref)} as the argument and ${JSON.stringify(given.branch)} as --branch; give one`);
  }
  const flags = ref === undefined ? given : { ...given, branch: ref };
  const file = flags.file === undefined ? undefined : localWrite(ctx.io.cwd, "--file", flags.file);
  await checkLocalWrites(ctx.io.cwd, file === undefined ? [] : [file], flags.config);
  const envWriter = await prepareEnvWriter(ctx, flags);
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const declared = await declaredDatabases(ctx, engine, flags);
  const { api, creds } = await connect(ctx, engine, flags, origins);
  const project = await api.getProject({ projectId: creds.projectId.value });
  const { branch, match } = await resolveBranch(api, project.id, creds.branchRef);
  printEcho(ctx, echoInfo({ api, creds, project, branch, match }, undefined), true);
  const choice = {
    branchName: branch.name,
    declaredDatabases: declared,
    ...(flags.database === undefined ? {} : { database: flags.database }),
    ...(flags.role === undefined ? {} : { role: flags.role }),
  };
  if (envWriter !== undefined) {
    await envWriter.write({ api, projectId: project.id, branchId: branch.id, ...choice });
    return 0;
  }
  const { database, role } = chooseBranchDatabase(await api.listDatabases({ projectId: project.id, branchId: branch.id }), choice);
  const uri = await api.getConnectionUri({ projectId: project.id, branchId: branch.id, databaseName: database, roleName: role, ...(flags.pooled === true ? { pooled: true } : {}) });
  const what = `the ${flags.pooled === true ? "pooled " : ""}connection string of ${branch.name} (database ${database}, role ${role})`;
  if (file !== undefined) {
    writeLocalFile(file, `${uri}\n`, { mode: 0o600 });
    ctx.info([`Wrote ${what} to ${file.display} (mode 0600).`]);
  } else {
    ctx.info([`This is ${what}.`]);
    ctx.outSecret(`${uri}\n`);
  }
  return 0;
}
