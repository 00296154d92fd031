/**
 * The lifecycle hooks each command runs, built from the loaded policy and the command's target:
 * `deploy` around an apply, `create` around a branch's creation, `checkout` around a sync.
 */
import type { PlatformApi } from "../../api/platform-api.js";
import type { ApiBranch } from "../../api/wire-types.js";
import type { HookBranch } from "../../config/policy-types.js";
import type { PushResult } from "../../model/plan.js";
import type { ExecuteInput } from "../commands/gated-run.js";
import type { LoadedPolicy } from "../commands/target-setup.js";
import type { CommandContext } from "../context.js";
import { readGitState } from "../git.js";
import { describeType } from "../../config/issues.js";
import { HookFailedError } from "../../errors/index.js";
import { nameIssue } from "../../rules/names.js";
import { hookBranch, newHookBranch } from "./hook-context.js";
import { readHookEnv } from "./hook-env.js";
import { HookRunner } from "./lifecycle.js";

/** A branch that exists, as commands know it. */
export interface HookTarget {
  api: PlatformApi;
  projectId: string;
  branch: Pick<ApiBranch, "id" | "name" | "default" | "protected" | "parent_id">;
}

/** The runner of a loaded policy's hooks. */
export function hookRunner(ctx: CommandContext, policy: LoadedPolicy): HookRunner {
  return new HookRunner(ctx, policy.config.hooks, policy.resolvedPath);
}

/**
 * `deploy.before` (once, after the gate, before the first change) and `deploy.after` (with the
 * apply's result) for an apply to `target`; nothing when the policy declares neither.
 */
export function deployHooks(ctx: CommandContext, policy: LoadedPolicy, target: HookTarget): Pick<ExecuteInput, "beforeExecute" | "afterSuccess"> {
  const runner = hookRunner(ctx, policy);
  if (!runner.has("deploy", "before") && !runner.has("deploy", "after")) return {};
  const branch = hookBranch(target.projectId, target.branch, false);
  let before: Promise<unknown> | undefined;
  return {
    // A plan shown again after the branch moved goes through the gate again; the hook runs once.
    beforeExecute: async () => {
      before ??= runner.before({ event: "deploy", git: await readGitState(ctx.io.cwd), branch });
      await before;
    },
    afterSuccess: async (result: PushResult) =>
      runner.after({ event: "deploy", git: await readGitState(ctx.io.cwd), branch, result }, () => readHookEnv({ api: target.api, projectId: target.projectId, branchId: branch.id ?? "", branchName: branch.name, config: policy.config })),
  };
}

/**
 * Runs the `after` hook of `event` for branch `branchId`, which the command finished with (read
 * again, so the hook sees its settings as applied); returns the exit code: 0, or 7 when it failed.
 */
export async function afterBranchHook(ctx: CommandContext, policy: LoadedPolicy, event: "create" | "checkout", target: { api: PlatformApi; projectId: string; branchId: string }, created: boolean): Promise<number> {
  const runner = hookRunner(ctx, policy);
  if (!runner.has(event, "after")) return 0;
  const { api, projectId, branchId } = target;
  const read = await api.getBranch({ projectId, branchId });
  const branch: HookBranch = hookBranch(projectId, read, created);
  return runner.after({ event, git: await readGitState(ctx.io.cwd), branch }, () => readHookEnv({ api, projectId, branchId, branchName: read.name, config: policy.config }));
}

/** Runs `create.before` for a branch about to be named `name`; throws `PLATFORM_HOOK_FAILED` when it fails. */
export async function beforeCreateHook(ctx: CommandContext, policy: LoadedPolicy, projectId: string, name: string): Promise<void> {
  const runner = hookRunner(ctx, policy);
  if (!runner.has("create", "before")) return;
  await runner.before({ event: "create", git: await readGitState(ctx.io.cwd), branch: newHookBranch(projectId, name) });
}

/**
 * Runs `checkout.before` for the branch a sync maps to (`existing`, or a new one named `name`)
 * and returns the name it chose (`{ name }`), or `undefined`. A returned value that is not
 * `undefined` or `{ name: <1-256 visible characters> }` fails the hook.
 */
export async function beforeCheckoutHook(ctx: CommandContext, policy: LoadedPolicy, projectId: string, name: string, existing: HookTarget["branch"] | undefined): Promise<string | undefined> {
  const runner = hookRunner(ctx, policy);
  if (!runner.has("checkout", "before")) return undefined;
  const branch = existing === undefined ? newHookBranch(projectId, name) : hookBranch(projectId, existing, false);
  const returned = await runner.before({ event: "checkout", git: await readGitState(ctx.io.cwd), branch });
  if (returned === undefined || returned === null) return undefined;
  const chosen = typeof returned === "object" ? (returned as { name?: unknown }).name : undefined;
  const issue = typeof chosen === "string" ? nameIssue(chosen, MAX_BRANCH_NAME_LENGTH) : "is not a string";
  if (issue !== null || typeof chosen !== "string") {
    throw new HookFailedError({ hook: "checkout.before", reason: `it returned ${describeType(returned)} whose name ${issue ?? "is invalid"}: return { name: "<branch name>" } to rename the branch, or nothing` });
  }
  return chosen;
}

/** The platform's longest branch name. */
const MAX_BRANCH_NAME_LENGTH = 256;
