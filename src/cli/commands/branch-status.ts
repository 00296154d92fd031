/**
 * `svc branch status`: the checked-out git branch, the platform branch `svc branch sync` maps it
 * to, whether that branch exists (an API read; without a key it says so and stays offline), and
 * whether the `post-checkout` hook is installed. The repository's default git branch, checked out,
 * has no preview (sync leaves it alone), and status says so. Changes nothing.
 */
import { ErrorCode } from "../../errors/codes.js";
import { isCliError } from "../../errors/cli-errors.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { CommandContext } from "../context.js";
import { checkGitBranchName, currentGitBranch, defaultGitBranches, gitHooksDir } from "../git.js";
import { DEFAULT_NAME_TEMPLATE, syncBranchName } from "../sync-names.js";
import type { TargetFlags } from "../target.js";
import { stringifyDocument } from "../views/json-plan.js";
import { installedHook } from "./branch-hook.js";
import { connect, loadEnv } from "./target-setup.js";

/** Flags of `svc branch status`. */
export interface BranchStatusFlags extends TargetFlags {
  gitBranch?: string;
  nameTemplate?: string;
  env?: string[];
  json?: boolean;
}

/** Whether the mapped branch exists: `null` when it could not be asked (no key or project). */
type Existence = { exists: true; branchId: string } | { exists: false } | { exists: null; why: string };

/** `svc branch status`. */
export async function runBranchStatus(ctx: CommandContext, flags: BranchStatusFlags): Promise<number> {
  const gitBranch = flags.gitBranch === undefined ? await currentGitBranch(ctx.io.cwd) : await checkGitBranchName(ctx.io.cwd, flags.gitBranch, "--git-branch");
  const hook = await installedHook(await gitHooksDir(ctx.io.cwd));
  if (flags.gitBranch === undefined && (await defaultGitBranches(ctx.io.cwd)).includes(gitBranch)) {
    if (flags.json === true) {
      ctx.out(stringifyDocument({ formatVersion: 1, command: "branch status", gitBranch, branchName: null, exists: null, branchId: null, hook, defaultGitBranch: true }));
      ctx.documentPrinted = true;
    } else {
      ctx.out([`Git branch      ${gitBranch}`, "Preview branch  none: the repository's default branch has no preview (svc branch sync leaves it alone)", `Git hook        ${hookLine(hook)}`]);
    }
    return 0;
  }
  const branchName = syncBranchName(flags.nameTemplate ?? DEFAULT_NAME_TEMPLATE, gitBranch);
  const existence = await lookUp(ctx, flags, branchName);
  if (flags.json === true) {
    ctx.out(stringifyDocument({ formatVersion: 1, command: "branch status", gitBranch, branchName, exists: existence.exists, branchId: existence.exists === true ? existence.branchId : null, hook, defaultGitBranch: false }));
    ctx.documentPrinted = true;
    return 0;
  }
  const exists =
    existence.exists === true ? `yes (${existence.branchId})` : existence.exists === false ? "no: svc branch sync creates it" : `unknown: ${existence.why}`;
  ctx.out([`Git branch      ${gitBranch}`, `Preview branch  ${branchName}`, `Exists          ${exists}`, `Git hook        ${hookLine(hook)}`]);
  return 0;
}

function hookLine(hook: Awaited<ReturnType<typeof installedHook>>): string {
  return hook === "svc" ? "installed" : hook === "none" ? "not installed (svc branch hook install)" : "another post-checkout hook is installed (svc branch hook install keeps it and runs it first)";
}

/** Reads the project's branches when a key and a project are at hand; says why not otherwise. */
async function lookUp(ctx: CommandContext, flags: BranchStatusFlags, name: string): Promise<Existence> {
  const origins = loadEnv(ctx, flags);
  let connected: Awaited<ReturnType<typeof connect>>;
  try {
    connected = await connect(ctx, await ctx.engine(), flags, origins);
  } catch (err) {
    if (isPlatformError(err, ErrorCode.MISSING_API_KEY)) return { exists: null, why: "no API key (set SVC_API_KEY to check)" };
    if (isCliError(err) && err.code === "CLI_MISSING_PROJECT") return { exists: null, why: "no project (set SVC_PROJECT_ID to check)" };
    throw err;
  }
  const found = (await connected.api.listBranches({ projectId: connected.creds.projectId.value })).find((b) => b.name === name);
  return found === undefined ? { exists: false } : { exists: true, branchId: found.id };
}
