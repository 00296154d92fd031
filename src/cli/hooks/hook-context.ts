/**
 * What a lifecycle hook receives: the context object of a function hook, and the variables of a
 * shell hook (the same facts, plus `CI=1`). Pure.
 */
import type { ApiBranch } from "../../api/wire-types.js";
import type { HookBranch, HookContext } from "../../config/policy-types.js";

/** `create.after`: how messages and output prefixes name a hook. */
export function hookLabel(context: Pick<HookContext, "event" | "phase">): string {
  return `${context.event}.${context.phase}`;
}

/** The hook's view of a platform branch that exists. */
export function hookBranch(projectId: string, branch: Pick<ApiBranch, "id" | "name" | "default" | "protected" | "parent_id">, created: boolean): HookBranch {
  return {
    projectId,
    id: branch.id,
    name: branch.name,
    created,
    isDefault: branch.default === true,
    isProtected: branch.protected === true,
    ...(branch.parent_id === undefined ? {} : { parentId: branch.parent_id }),
  };
}

/** The hook's view of a branch about to be created (`create.before`, `checkout.before` of a new preview). */
export function newHookBranch(projectId: string, name: string): HookBranch {
  return { projectId, id: null, name, created: false, isDefault: false, isProtected: false };
}

/**
 * The environment of a shell hook: the CLI's own, then the context as `SVC_HOOK_*`, `SVC_GIT_*`
 * and `SVC_PROJECT_ID` / `SVC_BRANCH_ID` / `SVC_BRANCH` / `SVC_BRANCH_CREATED`, then (after
 * hooks) the branch's function environment, and `CI=1` (no hook may wait for a prompt).
 */
export function hookShellEnv(context: HookContext, inherited: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(inherited)) if (value !== undefined) env[name] = value;
  env.SVC_HOOK_EVENT = context.event;
  env.SVC_HOOK_PHASE = context.phase;
  env.SVC_GIT_BRANCH = context.git?.branch ?? "";
  env.SVC_GIT_COMMIT = context.git?.commit ?? "";
  env.SVC_PROJECT_ID = context.branch.projectId;
  // A hook that runs svc itself targets this branch; before it exists there is no id to give.
  if (context.branch.id === null) delete env.SVC_BRANCH_ID;
  else env.SVC_BRANCH_ID = context.branch.id;
  env.SVC_BRANCH = context.branch.name;
  env.SVC_BRANCH_CREATED = String(context.branch.created);
  for (const [name, value] of Object.entries(context.env ?? {})) env[name] = value;
  env.CI = "1";
  return env;
}
