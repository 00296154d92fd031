import type { ApiListedBranch } from "../../api/platform-api.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { CommandContext } from "../context.js";
import { checkGitBranchName, existingGitBranches } from "../git.js";
import { SYNC_ANNOTATION, namesOfRecordedBranch, stripHeadsPrefix } from "../sync-names.js";
import type { TargetFlags } from "../target.js";
import { stringifyDocument } from "../views/json-plan.js";
import { connect, loadEnv, printEcho } from "./target-setup.js";

/** Flags of `svc branch cleanup`. */
export interface BranchCleanupFlags extends Omit<TargetFlags, "branch"> {
  /** Clean up only the branch synced from this git branch, whether or not it still exists. */
  gitBranch?: string;
  yes?: boolean;
  json?: boolean;
  env?: string[];
}

/** A branch sync made, with the git branch it was synced from. */
interface SyncedBranch {
  id: string;
  name: string;
  gitBranch: string;
}

/** Why a candidate is kept although its git branch is gone. */
function keptReason(branch: ApiListedBranch): string | undefined {
  if (branch.default) return "the project's default branch";
  if (branch.protected) return "protected";
  return undefined;
}

/**
 * Splits the project's branches: those sync made (annotation {@link SYNC_ANNOTATION}) whose git
 * branch is gone (or is `only`), into ones to delete and ones kept (default, protected). Branches
 * without the annotation are never candidates.
 */
export function cleanupCandidates(branches: readonly ApiListedBranch[], gone: (gitBranch: string) => boolean): { doomed: SyncedBranch[]; kept: (SyncedBranch & { reason: string })[] } {
  const doomed: SyncedBranch[] = [];
  const kept: (SyncedBranch & { reason: string })[] = [];
  for (const branch of branches) {
    const gitBranch = branch.annotation[SYNC_ANNOTATION];
    if (gitBranch === undefined || !gone(gitBranch)) continue;
    const entry = { id: branch.id, name: branch.name, gitBranch };
    const reason = keptReason(branch);
    if (reason === undefined) doomed.push(entry);
    else kept.push({ ...entry, reason });
  }
  const byName = (a: SyncedBranch, b: SyncedBranch): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { doomed: doomed.sort(byName), kept: kept.sort(byName) };
}

/**
 * `svc branch cleanup`: deletes the platform branches `svc branch sync` made whose git branch no
 * longer exists, neither locally nor on any remote (asked with `git ls-remote`; a remote that
 * cannot answer stops the command before anything is deleted), or, with `--git-branch`, the one
 * synced from that branch. Lists them, then asks on a terminal or needs `--yes`; never deletes
 * the default branch, a protected branch or a branch sync did not make. A branch that fails to
 * delete is reported and the rest go on (exit 1).
 */
export async function runBranchCleanup(ctx: CommandContext, flags: BranchCleanupFlags): Promise<number> {
  // Git first: a name it refuses, or a remote that cannot answer, stops before any platform call.
  const only = flags.gitBranch === undefined ? undefined : await checkGitBranchName(ctx.io.cwd, flags.gitBranch, "--git-branch");
  const existing = only === undefined ? await existingGitBranches(ctx.io.cwd) : undefined;
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const { api, creds } = await connect(ctx, engine, flags, origins);
  const json = flags.json === true;
  const project = await api.getProject({ projectId: creds.projectId.value });
  printEcho(ctx, { project: { id: project.id, name: project.name, label: creds.projectId.label }, api: { host: creds.apiHost.value, label: creds.apiHost.label, insecure: creds.apiHost.insecure }, keyLabel: creds.apiKey.label }, json);
  const branches = await api.listBranches({ projectId: project.id });
  const gone = (recorded: string): boolean =>
    existing === undefined ? stripHeadsPrefix(recorded) === only : !namesOfRecordedBranch(recorded, existing.remotes).some((name) => existing.names.has(name));
  const { doomed, kept } = cleanupCandidates(branches, gone);
  if (existing !== undefined && !json) {
    const where = existing.remotes.length === 0 ? "the local branches (no git remote is configured)" : `the local branches and ${existing.remotes.map((r) => `remote ${r}`).join(", ")} (git ls-remote)`;
    ctx.info([`Checked which git branches exist against ${where}.`]);
  }
  const what = only === undefined ? "whose git branch no longer exists" : `synced from git branch ${only}`;
  const line = (b: SyncedBranch): string => `  ${b.name} (${b.id})  git branch ${b.gitBranch}`;
  if (!json) {
    for (const b of kept) ctx.err([`Keeping ${b.name} (${b.id}), synced from ${b.gitBranch}: it is ${b.reason}.`]);
    if (doomed.length > 0) ctx.out([`Branches made by svc branch sync ${what}:`, ...doomed.map(line)]);
  }
  const printDocument = (deleted: SyncedBranch[], failed: (SyncedBranch & { error: string })[]): void => {
    if (!json) return;
    ctx.out(stringifyDocument({ formatVersion: 1, command: "branch cleanup", target: { projectId: project.id }, deleted, kept, failed }));
    ctx.documentPrinted = true;
  };
  if (doomed.length === 0) {
    if (json) printDocument([], []);
    else ctx.out([`Nothing to clean up: no branch made by svc branch sync ${what}.`]);
    return 0;
  }
  if (flags.yes !== true) {
    const count = `${doomed.length} branch${doomed.length === 1 ? "" : "es"}`;
    if (!ctx.interactive) throw new CliError(CliErrorCode.CONFIRMATION_REQUIRED, `Deleting ${count} needs confirmation.`, { hint: "Add --yes to delete them." });
    if (!(await ctx.ask([`Delete ${count} and everything on them?`]))) throw new CliError(CliErrorCode.ABORTED, "No branch was deleted.", { hint: "Nothing changed." });
  }
  const deleted: SyncedBranch[] = [];
  const failed: (SyncedBranch & { error: string })[] = [];
  for (const branch of doomed) {
    try {
      const { operations } = await api.deleteBranch({ projectId: project.id, branchId: branch.id });
      await api.waitForOperations({ projectId: project.id, operations });
      deleted.push(branch);
      if (!json) ctx.out([`Deleted branch ${branch.name} (${branch.id})`]);
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      failed.push({ ...branch, error: err.message });
      ctx.err([`error ${err.code}: could not delete ${branch.name} (${branch.id}): ${err.message}`]);
    }
  }
  printDocument(deleted, failed);
  return failed.length === 0 ? 0 : 1;
}
