import { ErrorCode } from "../../errors/codes.js";
import { PlatformError, isPlatformError } from "../../errors/platform-error.js";
import type { CommandContext } from "../context.js";
import { declaredDatabasesOf } from "../branch-database.js";
import { prepareEnvWriter } from "../write-env.js";
import { gateAndExecute, type ApplyFlags, type ExecuteInput } from "./gated-run.js";
import { computePlan, planAgain, selectionOptions, type PlannedRun } from "./plan-command.js";
import { runSavedPlanApply } from "./saved-plan-apply.js";
import { bundleCacheOption, engineTuning } from "../engine-tuning.js";
import { deployHooks } from "../hooks/command-hooks.js";

/** `svc config apply [PLANFILE]` and `svc deploy`. */
export async function runApply(ctx: CommandContext, planFile: string | undefined, flags: ApplyFlags): Promise<number> {
  // Local files first: nothing is read from or changed on the platform before they are checked.
  const envWriter = await prepareEnvWriter(ctx, flags);
  if (planFile !== undefined) return runSavedPlanApply(ctx, planFile, flags, envWriter);
  const run = await computePlan(ctx, flags, flags.json === true);
  const { api, project, branch } = run.target;
  try {
    return await applyShownPlan(ctx, run, flags, {
      inferredTarget: run.target.match === "default",
      ...deployHooks(ctx, run.policy, { api, projectId: project.id, branch }),
      ...(envWriter === undefined ? {} : { onSuccess: (applied) => envWriter.write({ api, projectId: project.id, branchId: branch.id, branchName: branch.name, declaredDatabases: declaredDatabasesOf(run.policy.config), ...(applied === undefined ? {} : { applied }) }) }),
    });
  } finally {
    await run.cacheWritten;
  }
}

/**
 * Shows a plan, gates it and applies exactly that plan: execution goes through the
 * engine's saved-plan check, so a branch that changed after the plan was shown is never applied
 * blind. On a terminal without `--yes` the new plan is shown and the question asked again;
 * elsewhere the run stops with `PLATFORM_STALE_PLAN` (exit 6) and nothing applied.
 */
export async function applyShownPlan(ctx: CommandContext, first: PlannedRun, flags: ApplyFlags, options: Pick<ExecuteInput, "inferredTarget" | "wrapDocument" | "wrapSuccessDocument" | "onSuccess" | "beforeExecute" | "afterSuccess">): Promise<number> {
  let run = first;
  let reshown = false;
  for (;;) {
    try {
      return await gateAndExecute(ctx, {
        result: run.result,
        view: run.view,
        flags,
        ...options,
        execute: applyGranted(ctx, run, flags),
        ...(reshown ? { askAnyway: true } : {}),
      });
    } catch (err) {
      if (!isPlatformError(err, ErrorCode.STALE_PLAN)) throw err;
      const moved = `Branch ${run.view.branchName} changed after the plan was shown; nothing was applied.`;
      if (!ctx.interactive || flags.yes === true) {
        throw new PlatformError(ErrorCode.STALE_PLAN, moved, { details: { ...err.details, shownPlan: true }, cause: err });
      }
      ctx.err([`${moved} The plan for its current state:`]);
      run = await planAgain(ctx, run, flags);
      reshown = true;
    }
  }
}

/**
 * Applies the shown plan (`run.result`) with what the gate granted (the engine's
 * `shown-plan.ts`): the branch is read again, and the plan runs only when what it was computed
 * from is unchanged, else through `applyPlan` of the shown plan, which refuses
 * (`PLATFORM_STALE_PLAN`) unless the branch still plans exactly the same changes.
 */
function applyGranted(ctx: CommandContext, run: PlannedRun, flags: ApplyFlags): ExecuteInput["execute"] {
  return async (granted, onEvent) =>
    (await import("../../engine/shown-plan.js")).applyShownPlan(run.result, {
      projectId: run.target.project.id,
      branchId: run.target.branch.id,
      api: run.target.api,
      config: run.policy.config,
      ...granted,
      signal: ctx.signal,
      onEvent,
      ...engineTuning(ctx.io, flags),
      ...bundleCacheOption(flags, run.policy.resolvedPath),
      ...selectionOptions(flags),
    });
}
