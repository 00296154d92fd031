import type { ApiBranch, ApiListedBranch, PlatformApi } from "../../api/platform-api.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { PushResult } from "../../model/plan.js";
import { LIBRARY_VERSION } from "../../version.js";
import { readBranchServices, renderFunctionsText } from "../branch-services.js";
import type { CommandContext } from "../context.js";
import { resolveBranch, type TargetFlags } from "../target.js";
import { buildPlanDocument, stringifyDocument } from "../views/json-plan.js";
import { shown } from "../views/outside-text.js";
import { renderTargetBlock, renderTargetLine } from "../views/target-echo.js";
import { appliedChangeLines, renderApplyComplete } from "../views/text-result.js";
import { applyShownPlan } from "./apply-command.js";
import { reportFailure, type ApplyFlags } from "./gated-run.js";
import { computePlan } from "./plan-command.js";
import { declaredDatabasesOf } from "../branch-database.js";
import { prepareEnvWriter } from "../write-env.js";
import { checksOption, connect, echoInfo, loadEnv, loadPolicyWithChecks, printEcho, viewTarget, type Target } from "./target-setup.js";
import { bundleCacheOption, engineTuning } from "../engine-tuning.js";
import { afterBranchHook, beforeCheckoutHook, beforeCreateHook } from "../hooks/command-hooks.js";

/** Flags of `svc branch create NAME`. */
export interface BranchCreateFlags extends Omit<ApplyFlags, "branch" | "out" | "markdown" | "detailedExitcode"> {
  ifExists?: "fail" | "apply";
}

/** What `svc branch sync` adds to a create-or-apply run. */
export interface BranchCreateHooks {
  /** The `command` of the `--json` documents. */
  command: "branch create" | "branch sync";
  /** The annotation a new branch gets. */
  annotations?: Record<string, string>;
  /** Checks an existing branch before the policy is applied to it (throws to refuse). */
  checkExisting?: (branch: ApiListedBranch) => void;
  /** Runs once the branch matches the policy (after `--write-env`); `created` when this run made it. */
  onSuccess?: (target: { api: PlatformApi; projectId: string; branchId: string; branchName: string; created: boolean }) => Promise<void>;
}

/**
 * `svc branch create NAME`: `createBranch` from the policy, or with
 * `--if-exists apply` the policy applied to the existing branch exactly as
 * `svc config apply --branch id:<id>` (`created: false`). With `--write-env`, the branch's
 * variables are written once it matches the policy.
 */
export async function runBranchCreate(ctx: CommandContext, mapped: string, flags: BranchCreateFlags, hooks: BranchCreateHooks = { command: "branch create" }): Promise<number> {
  const envWriter = await prepareEnvWriter(ctx, flags);
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const policy = await loadPolicyWithChecks(ctx, engine, flags);
  const { api, creds } = await connect(ctx, engine, flags, origins);
  const project = await api.getProject({ projectId: creds.projectId.value });
  const find = async (branchName: string) => (flags.ifExists === "apply" ? (await api.listBranches({ projectId: project.id })).find((b) => b.name === branchName) : undefined);
  let name = mapped;
  let existing = await find(name);
  const sync = hooks.command === "branch sync";
  const renamed = sync ? await beforeCheckoutHook(ctx, policy, project.id, name, existing) : undefined;
  if (renamed !== undefined && renamed !== name) {
    ctx.info([`Hook checkout.before named the platform branch ${renamed}`]);
    name = renamed;
    existing = await find(name);
  }
  // The checkout hook runs after create's, once the branch matches the policy.
  const afterCheckout = (branchId: string, created: boolean): Promise<number> => (sync ? afterBranchHook(ctx, policy, "checkout", { api, projectId: project.id, branchId }, created) : Promise.resolve(0));
  const json = flags.json === true;
  const command = hooks.command;
  const succeeded = async (branch: { id: string; name: string }, created: boolean, applied: string | undefined): Promise<void> => {
    const target = { api, projectId: project.id, branchId: branch.id, branchName: branch.name };
    await envWriter?.write({ ...target, declaredDatabases: declaredDatabasesOf(policy.config), ...(applied === undefined ? {} : { applied }) });
    await hooks.onSuccess?.({ ...target, created });
  };

  if (existing !== undefined) {
    hooks.checkExisting?.(existing);
    const run = await computePlan(ctx, { ...flags, branch: `id:${existing.id}` }, json, { origins, policy });
    const wrap = (doc: object): object => ({ formatVersion: 1, command, target: run.view, branchId: existing.id, branchName: existing.name, created: false, result: doc });
    try {
      return await applyShownPlan(ctx, run, flags, {
        inferredTarget: false,
        wrapDocument: wrap,
        // Every function's URL once the branch matches the policy, as for a new branch.
        wrapSuccessDocument: async (doc) => ({ ...wrap(doc), functions: (await readBranchServices(api, { projectId: project.id, branchId: existing.id })).functions }),
        onSuccess: (applied) => succeeded(existing, false, applied),
        afterSuccess: () => afterCheckout(existing.id, false),
      });
    } finally {
      await run.cacheWritten;
    }
  }

  const echo = {
    project: { id: project.id, name: project.name, label: creds.projectId.label },
    branch: { name, label: "new branch" },
    api: { host: creds.apiHost.value, label: creds.apiHost.label, insecure: creds.apiHost.insecure },
    config: { path: policy.relativePath, label: policy.label },
    keyLabel: creds.apiKey.label,
  };
  ctx.err(json || ctx.quiet ? renderTargetLine(echo) : renderTargetBlock(echo));
  if (flags.target !== undefined || flags.exclude !== undefined) ctx.info(["--target/--exclude narrow applies to an existing branch; a new branch gets the whole policy."]);
  const started = ctx.io.now();
  const progress = ctx.progress();
  let created: { branchId: string; branchName: string; result: PushResult };
  try {
    created = await engine.createBranch(policy.config, {
      projectId: project.id,
      branchName: name,
      api,
      signal: ctx.signal,
      onEvent: progress.onEvent,
      ...(flags.allowDataLoss === true ? { allowDataLoss: true } : {}),
      ...engineTuning(ctx.io, flags),
      ...bundleCacheOption(flags, policy.resolvedPath),
      ...(hooks.annotations === undefined ? {} : { annotations: hooks.annotations }),
      ...checksOption(policy),
      // The create.before hook runs once the checks passed, right before the branch is created.
      beforeCreate: () => beforeCreateHook(ctx, policy, project.id, name),
    });
  } catch (err) {
    progress.stop();
    const partial = isPlatformError(err, ErrorCode.PARTIAL_BRANCH_CREATE) ? (err.details as { result?: PushResult; branchId?: string }) : undefined;
    if (partial?.result === undefined) throw err;
    const view = newBranchView(project, creds, policy.relativePath, partial.branchId ?? "", name);
    const code = await reportFailure(ctx, err, {
      view,
      planned: partial.result,
      json,
      durationMs: ctx.io.now() - started,
      wrap: (doc) => ({ formatVersion: 1, command, target: view, branchId: partial.branchId ?? null, branchName: name, created: true, result: doc }),
    });
    return Math.max(code, 7);
  }
  progress.stop();
  const durationMs = ctx.io.now() - started;
  const view = newBranchView(project, creds, policy.relativePath, created.branchId, created.branchName);
  // Every function's URL on the new branch, inherited ones included (the result lists only created ones).
  const { functions } = await readBranchServices(api, { projectId: project.id, branchId: created.branchId });
  if (json) {
    const doc = buildPlanDocument({ command: "apply", cliVersion: LIBRARY_VERSION, target: view, result: created.result, outcome: { status: "applied", durationMs, error: null } });
    ctx.out(stringifyDocument({ formatVersion: 1, command, target: view, branchId: created.branchId, branchName: created.branchName, created: true, result: doc, functions }));
    ctx.documentPrinted = true;
  } else {
    const urls = renderFunctionsText(functions);
    ctx.out([`Created branch ${created.branchName} (${created.branchId})`, ...appliedChangeLines(created.result)]);
    ctx.out(renderApplyComplete(created.result, durationMs));
    ctx.out(urls);
  }
  await succeeded({ id: created.branchId, name: created.branchName }, true, `the new branch ${shown(created.branchName)}`);
  const afterCreate = await afterBranchHook(ctx, policy, "create", { api, projectId: project.id, branchId: created.branchId }, true);
  return Math.max(afterCreate, await afterCheckout(created.branchId, true));
}

function newBranchView(project: Target["project"], creds: Target["creds"], configPath: string, branchId: string, branchName: string): ReturnType<typeof viewTarget> {
  const branch: ApiBranch = { id: branchId, name: branchName, default: false, protected: false, created_at: "" };
  return viewTarget({ creds, project, branch, match: "name" }, configPath);
}

/** Flags of `svc branch delete`. */
export interface BranchDeleteFlags extends TargetFlags {
  yes?: boolean;
  json?: boolean;
  env?: string[];
}

/**
 * `svc branch delete NAME|ID`: refuses the default and protected branches, asks on
 * a terminal, needs `--yes` elsewhere; a missing branch is success (idempotent PR-close jobs).
 */
export async function runBranchDelete(ctx: CommandContext, ref: string, flags: BranchDeleteFlags): Promise<number> {
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const { api, creds } = await connect(ctx, engine, { ...flags, branch: ref }, origins);
  const project = await api.getProject({ projectId: creds.projectId.value });
  const json = flags.json === true;
  let branch: ApiBranch;
  try {
    branch = (await resolveBranch(api, project.id, { value: ref, source: "flag", label: "argument" })).branch;
  } catch (err) {
    if (!isPlatformError(err, ErrorCode.BRANCH_NOT_FOUND)) throw err;
    const bare = ref.replace(/^(id|name):/, "");
    if (json) {
      ctx.out(stringifyDocument({ formatVersion: 1, command: "branch delete", target: { projectId: project.id, branch: bare }, branchId: null, deleted: false }));
      ctx.documentPrinted = true;
    } else {
      ctx.out([`Branch ${bare} does not exist; nothing to delete.`]);
    }
    return 0;
  }
  const target: Target = { api, creds, project, branch, match: "name" };
  printEcho(ctx, { ...echoInfo(target, undefined), branch: { name: branch.name, id: branch.id, protected: branch.protected, isDefault: branch.default, label: "argument" } }, json);
  if (branch.default || branch.protected) {
    throw new CliError(CliErrorCode.DELETE_REFUSED, `Branch ${branch.name} (${branch.id}) is ${branch.default ? "the project's default branch" : "protected"}; svc does not delete it.`, {
      hint: branch.default ? "Make another branch the default first, in the console." : "Unprotect the branch before deleting it.",
    });
  }
  if (flags.yes !== true) {
    if (!ctx.interactive) {
      throw new CliError(CliErrorCode.CONFIRMATION_REQUIRED, `Deleting branch ${branch.name} (${branch.id}) needs confirmation.`, { hint: "Add --yes to delete it." });
    }
    if (!(await ctx.ask([`Delete branch ${branch.name} (${branch.id}) and everything on it?`]))) {
      throw new CliError(CliErrorCode.ABORTED, `Branch ${branch.name} was not deleted.`, { hint: "Nothing changed." });
    }
  }
  const { operations } = await api.deleteBranch({ projectId: project.id, branchId: branch.id });
  await api.waitForOperations({ projectId: project.id, operations });
  if (json) {
    ctx.out(stringifyDocument({ formatVersion: 1, command: "branch delete", target: viewTarget(target, ""), branchId: branch.id, deleted: true }));
    ctx.documentPrinted = true;
  } else {
    ctx.out([`Deleted branch ${branch.name} (${branch.id})`]);
  }
  return 0;
}
