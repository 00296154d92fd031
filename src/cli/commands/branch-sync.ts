import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { readBranchServices, renderFunctionsText } from "../branch-services.js";
import type { CommandContext } from "../context.js";
import { checkGitBranchName, currentGitBranch, defaultGitBranches } from "../git.js";
import { DEFAULT_NAME_TEMPLATE, SYNC_ANNOTATION, syncBranchName } from "../sync-names.js";
import { runBranchCreate, type BranchCreateFlags } from "./branch-commands.js";

/** Flags of `svc branch sync`. */
export interface BranchSyncFlags extends Omit<BranchCreateFlags, "ifExists"> {
  /** The git branch to map; default: the checked-out one. */
  gitBranch?: string;
  /** @default "preview/{git-branch}" */
  nameTemplate?: string;
}

/**
 * `svc branch sync`: maps the git branch (checked out, or `--git-branch`) to a platform branch
 * named by the template, creates it from the policy when missing (marked with the
 * {@link SYNC_ANNOTATION} annotation) or applies the policy when it exists, writes `--write-env`,
 * and prints the branch's function URLs. A branch of that name synced from another git branch
 * is refused; one sync did not make is applied to with a warning (cleanup never deletes it).
 * The checked-out branch being the repository's default git branch (`main`: what a checkout with
 * the git hook installed runs on) is no preview: it stands for the platform's default branch,
 * which sync never creates or changes, so nothing is done. Named with `--git-branch`, it is
 * synced to a preview like any other branch.
 */
export async function runBranchSync(ctx: CommandContext, flags: BranchSyncFlags): Promise<number> {
  const gitBranch = flags.gitBranch === undefined ? await currentGitBranch(ctx.io.cwd) : await checkGitBranchName(ctx.io.cwd, flags.gitBranch, "--git-branch");
  if (flags.gitBranch === undefined && (await defaultGitBranches(ctx.io.cwd)).includes(gitBranch)) {
    ctx.info([defaultBranchSkipped(gitBranch)]);
    return 0;
  }
  const name = syncBranchName(flags.nameTemplate ?? DEFAULT_NAME_TEMPLATE, gitBranch);
  ctx.info([`Git branch ${gitBranch} -> platform branch ${name}`]);
  return runBranchCreate(ctx, name, { ...flags, ifExists: "apply" }, {
    command: "branch sync",
    annotations: { [SYNC_ANNOTATION]: gitBranch },
    checkExisting: (branch) => {
      const syncedFrom = branch.annotation[SYNC_ANNOTATION];
      if (syncedFrom === undefined) {
        ctx.err([`warning: branch ${name} (${branch.id}) was not made by svc branch sync; the policy is applied to it, but svc branch cleanup will never delete it.`]);
      } else if (syncedFrom !== gitBranch) {
        throw new CliError(CliErrorCode.USAGE, `Branch ${name} (${branch.id}) was synced from git branch ${syncedFrom}, not ${gitBranch}: both names map to ${name}. Nothing was changed.`, {
          hint: "Sync one of them with another --name-template, or delete the old preview with svc branch delete.",
        });
      }
    },
    // A new branch's function URLs are printed by branch create itself.
    onSuccess: async ({ api, projectId, branchId, created }) => {
      if (created || flags.json === true) return;
      const { functions } = await readBranchServices(api, { projectId, branchId });
      ctx.out(renderFunctionsText(functions));
    },
  });
}

/** What sync says when the checked-out branch is the repository's default git branch. */
export function defaultBranchSkipped(gitBranch: string): string {
  return `Git branch ${gitBranch} is the repository's default branch: it stands for the platform's default branch, which svc branch sync leaves alone. Nothing to do (--git-branch ${gitBranch} syncs it to a preview anyway).`;
}
