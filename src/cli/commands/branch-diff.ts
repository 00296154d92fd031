/**
 * `svc branch diff [BRANCH]`: the schema difference between a branch and its parent (or `--base`),
 * one database of each, read from the platform's `compare_schema` and shown without ownership and
 * comment statements. Changes nothing. `plan --markdown --schema-diff` reads it the same way.
 */
import type { ApiBranch, PlatformApi } from "../../api/platform-api.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { chooseBranchDatabase } from "../branch-database.js";
import type { CommandContext } from "../context.js";
import { resolveBranch, type TargetFlags } from "../target.js";
import { stringifyDocument } from "../views/json-plan.js";
import { printedDocument } from "../views/outside-text.js";
import { quietSchemaDiff, renderSchemaDiffMarkdown, renderSchemaDiffText, schemaDiffDocument, schemaDiffHeading, type SchemaDiffView } from "../views/schema-diff.js";
import { declaredDatabases } from "./connection-string-command.js";
import { connect, echoInfo, loadEnv, printEcho, type PolicyFlags } from "./target-setup.js";

/** Flags of `svc branch diff`. */
export interface BranchDiffFlags extends Omit<TargetFlags, "branch">, Omit<PolicyFlags, "checks"> {
  /** `--base BRANCH`: the branch compared with (default: the branch's parent). */
  base?: string;
  /** `--database NAME` (default: the rule of `branch connection-string`). */
  database?: string;
  json?: boolean;
  markdown?: boolean;
}

/** What a schema diff is read for: the branch, and what `--base` and `--database` said. */
export interface SchemaDiffRequest {
  api: PlatformApi;
  projectId: string;
  branch: ApiBranch;
  /** The branch compared with; default: the branch's parent. */
  base?: ApiBranch;
  /** `--database`: must exist on both branches. */
  database?: string;
  /** Databases the policy declares, in preference order, for the default choice. */
  declaredDatabases: readonly string[];
}

/** The parent of `branch`, or a usage error saying why there is none to compare with. */
async function parentOf(api: PlatformApi, projectId: string, branch: ApiBranch): Promise<ApiBranch> {
  const what = `Branch ${branch.name} (${branch.id})`;
  const hint = "Name the branch to compare it with: --base BRANCH.";
  if (branch.parent_id === undefined) throw new CliError(CliErrorCode.USAGE, `${what} has no parent branch to compare its schema with.`, { hint });
  const parent = (await api.listBranches({ projectId })).find((b) => b.id === branch.parent_id);
  if (parent === undefined) throw new CliError(CliErrorCode.USAGE, `${what} was made from ${branch.parent_id}, which no longer exists.`, { hint });
  return parent;
}

/**
 * Reads the schema difference of one database from the base (default: the parent) to the branch:
 * the database both branches must have, the platform's diff, its noise dropped. Errors name the
 * branch and the database that is missing.
 */
export async function readSchemaDiff(request: SchemaDiffRequest): Promise<SchemaDiffView> {
  const { api, projectId, branch } = request;
  const { compareSchema } = api;
  if (compareSchema === undefined) {
    throw new CliError(CliErrorCode.USAGE, "The platform adapter has no compareSchema, which the schema diff is read through; nothing was read.", {
      hint: "Give the adapter a compareSchema method (GET …/branches/{branch_id}/compare_schema), or use the client createPlatformApi returns.",
    });
  }
  const base = request.base ?? (await parentOf(api, projectId, branch));
  const [branchDatabases, baseDatabases] = await Promise.all([api.listDatabases({ projectId, branchId: branch.id }), api.listDatabases({ projectId, branchId: base.id })]);
  const { database } = chooseBranchDatabase(branchDatabases, {
    branchName: branch.name,
    declaredDatabases: request.declaredDatabases,
    ...(request.database === undefined ? {} : { database: request.database }),
  });
  if (!baseDatabases.some((d) => d.name === database)) {
    const names = baseDatabases.map((d) => d.name).join(", ") || "(none)";
    throw new CliError(CliErrorCode.USAGE, `Branch ${base.name} (${base.id}) has no database ${database} to compare with (it has: ${names}).`, {
      hint: "Pick a database both branches have with --database NAME, or another branch with --base BRANCH.",
    });
  }
  const diff = await compareSchema.call(api, { projectId, branchId: branch.id, databaseName: database, ...(request.base === undefined ? {} : { baseBranchId: base.id }) });
  return { branch: { id: branch.id, name: branch.name }, base: { id: base.id, name: base.name, parent: request.base === undefined }, database, lines: quietSchemaDiff(diff) };
}

/** `svc branch diff [BRANCH] [--base BRANCH] [--database NAME] [--json | --markdown]`: exits 0 whether or not the schemas differ. */
export async function runBranchDiff(ctx: CommandContext, ref: string | undefined, flags: BranchDiffFlags): Promise<number> {
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const declared = await declaredDatabases(ctx, engine, flags);
  const { api, creds } = await connect(ctx, engine, ref === undefined ? flags : { ...flags, branch: ref }, origins);
  const project = await api.getProject({ projectId: creds.projectId.value });
  const { branch, match } = await resolveBranch(api, project.id, creds.branchRef);
  const base = flags.base === undefined ? undefined : (await resolveBranch(api, project.id, { value: flags.base, source: "flag", label: "--base" })).branch;
  const compact = flags.json === true || flags.markdown === true || ctx.quiet;
  const echo = echoInfo({ api, creds, project, branch, match }, undefined);
  if (ref !== undefined && echo.branch !== undefined) echo.branch.label = "argument";
  printEcho(ctx, echo, compact);
  const view = await readSchemaDiff({
    api,
    projectId: project.id,
    branch,
    declaredDatabases: declared,
    ...(base === undefined ? {} : { base }),
    ...(flags.database === undefined ? {} : { database: flags.database }),
  });
  if (flags.json === true) {
    ctx.out(stringifyDocument(schemaDiffDocument(view, project.id)));
    ctx.documentPrinted = true;
  } else if (flags.markdown === true) {
    ctx.out(printedDocument(`${renderSchemaDiffMarkdown(view)}\n`));
  } else {
    const heading = schemaDiffHeading(view);
    if (heading !== undefined) ctx.info([heading]);
    ctx.out(renderSchemaDiffText(view, ctx.styleFor("stdout")));
  }
  return 0;
}
