/**
 * The run every applying command shares: render the plan, gate it (flags or a
 * question), execute it with what was granted, and print the outcome or the partial failure.
 */
import { shown } from "../views/outside-text.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { PushConflictError } from "../../errors/engine-errors.js";
import { CheckFailedError } from "../../errors/check-errors.js";
import { isBlockingCheck } from "../../model/check-result.js";
import { PlatformError, isPlatformError } from "../../errors/platform-error.js";
import type { PushResult } from "../../model/plan.js";
import { LIBRARY_VERSION } from "../../version.js";
import type { CommandContext } from "../context.js";
import { confirmationQuestion, confirmationRequired, gateReasons, grantedByFlags, type GateInput, type Granted } from "../gate.js";
import { describeError, exitCodeFor, renderErrorText, toJsonError } from "../views/error-view.js";
import { buildPlanDocument, stringifyDocument, type ApplyOutcome } from "../views/json-plan.js";
import { renderPlanText } from "../views/text-plan.js";
import { applyCompleteLine, renderApplyComplete, renderOutcomeLists } from "../views/text-result.js";
import { selectionLine } from "../views/plan-notes.js";
import { hasBlockingConflict, noChangesLine, type ViewTarget } from "../views/view-model.js";
import type { WriteEnvFlags } from "../write-env.js";
import type { PlanFlags } from "./plan-command.js";

/** Flags of `svc config apply` and `svc deploy`. */
export interface ApplyFlags extends PlanFlags, WriteEnvFlags {
  updateExisting?: boolean;
  allowProtected?: boolean;
  allowDataLoss?: boolean;
  yes?: boolean;
}

/** What an execution needs besides the engine call itself. */
export interface ExecuteInput {
  result: PushResult;
  view: ViewTarget;
  flags: ApplyFlags;
  inferredTarget: boolean;
  /** Runs the engine with the granted options; the progress handler is attached by the caller. */
  execute: (granted: Granted, onEvent: (event: unknown) => void) => Promise<PushResult>;
  /** Wraps the `--json` apply document (e.g. into `branch create`'s). */
  wrapDocument?: (doc: object) => object;
  /** Wraps the `--json` document of a run that succeeded, reading what it needs (e.g. the branch's function URLs); default: `wrapDocument`. */
  wrapSuccessDocument?: (doc: object) => Promise<object>;
  /** Ask before applying even when flags grant every reason (a re-shown plan after the branch moved). */
  askAnyway?: boolean;
  /**
   * Runs once the branch matches the plan, e.g. `--write-env`: `applied` is what this run changed
   * (`branch main`), undefined when there was nothing to do.
   */
  onSuccess?: (applied: string | undefined) => Promise<void>;
  /** Runs once the plan is granted, before the first change (the `deploy.before` hook); a throw leaves everything unchanged. */
  beforeExecute?: () => Promise<void>;
  /** Runs last when the run succeeded and returns its exit code (the `deploy.after` hook). @default 0 */
  afterSuccess?: (result: PushResult) => Promise<number>;
}

/**
 * The confirmation gate: blocking conflicts first (exit 3), then every reason
 * granted by flags, else an interactive question (default No, exit 5), else
 * `CLI_CONFIRMATION_REQUIRED` (exit 4) naming the missing flags.
 */
export async function gate(ctx: CommandContext, input: GateInput & { result: PushResult; view: ViewTarget; flags: ApplyFlags; askAnyway?: boolean }): Promise<Granted> {
  const { result, flags } = input;
  if (hasBlockingConflict(result)) throw new PushConflictError(result.conflicts.filter((c) => c.blocking), input.branchName, result);
  const gateFlags = { updateExisting: flags.updateExisting === true, allowProtected: flags.allowProtected === true, allowDataLoss: flags.allowDataLoss === true, yes: flags.yes === true };
  const reasons = gateReasons(input);
  const missing = reasons.filter((r) => !grantedByFlags(r, gateFlags));
  const granted: Granted = {
    updateExisting: gateFlags.updateExisting || gateFlags.yes,
    allowProtectedBranch: gateFlags.allowProtected || gateFlags.yes,
    allowDataLoss: gateFlags.allowDataLoss,
  };
  if (missing.length === 0 && input.askAnyway !== true) return granted;
  if (!ctx.interactive || gateFlags.yes) throw confirmationRequired(missing, input);
  const question = confirmationQuestion({
    changeCount: result.changes.length,
    branchName: input.view.branchName,
    branchId: input.view.branchId,
    projectId: input.view.projectId,
    reasons: missing,
  });
  if (!(await ctx.ask(question))) {
    throw new CliError(CliErrorCode.ABORTED, "Apply cancelled.", { hint: "Nothing changed." });
  }
  for (const reason of missing) {
    if (reason.kind === "override") granted.updateExisting = true;
    if (reason.kind === "protected") granted.allowProtectedBranch = true;
    if (reason.kind === "data-loss") granted.allowDataLoss = true;
  }
  return granted;
}

/** Wraps the `--json` apply document (e.g. into `branch create`'s), or leaves it as is. */
export type Wrap = ((doc: object) => object) | undefined;

async function printDocument(ctx: CommandContext, view: ViewTarget, result: PushResult, outcome: ApplyOutcome, wrap: ((doc: object) => object | Promise<object>) | undefined): Promise<void> {
  const doc = buildPlanDocument({ command: "apply", cliVersion: LIBRARY_VERSION, target: view, result, outcome });
  ctx.out(stringifyDocument(wrap === undefined ? doc : await wrap(doc)));
  ctx.documentPrinted = true;
}

function changeErrors(result: PushResult): Record<string, ReturnType<typeof toJsonError>> {
  const errors: Record<string, ReturnType<typeof toJsonError>> = {};
  for (const f of result.failed) {
    errors[f.change.id] = { code: f.error.code, message: f.error.message.split("\n")[0] ?? "", requestId: typeof f.error.details?.requestId === "string" ? f.error.details.requestId : null, hint: null, causes: [] };
  }
  return errors;
}

/**
 * Renders a plan, gates it and executes it, then prints the result: the
 * completion line and outputs, or the applied/failed/skipped lists after a partial failure
 * (exit 7, or 1 when nothing was applied) or an interrupt (exit 130).
 */
export async function gateAndExecute(ctx: CommandContext, input: ExecuteInput): Promise<number> {
  const { result, view, flags } = input;
  const json = flags.json === true;
  const started = ctx.io.now();
  const given = { updateExisting: flags.updateExisting === true || flags.yes === true, allowDataLoss: flags.allowDataLoss === true, allowProtected: flags.allowProtected === true || flags.yes === true };
  if (!json && !ctx.quiet) ctx.out(renderPlanText(result, ctx.styleFor("stdout"), { branchProtected: view.branchProtected, configPath: view.configPath, granted: given }));
  // Checks judge the plan just shown: a mandatory failure stops here, before any question, hook or change.
  const blockingChecks = (result.checks ?? []).filter(isBlockingCheck);
  if (blockingChecks.length > 0 && !hasBlockingConflict(result)) throw new CheckFailedError(blockingChecks, view.branchName, result);
  if (result.changes.length === 0 && !hasBlockingConflict(result)) {
    if (json) await printDocument(ctx, view, result, { status: "no-changes", durationMs: 0, error: null }, input.wrapSuccessDocument ?? input.wrapDocument);
    else if (ctx.quiet) ctx.out([selectionLine(result) ?? noChangesLine(view.branchName, view.configPath)]);
    await input.beforeExecute?.();
    await input.onSuccess?.(undefined);
    return (await input.afterSuccess?.(result)) ?? 0;
  }
  const granted = await gate(ctx, {
    changes: result.changes,
    branchName: view.branchName,
    branchProtected: view.branchProtected,
    inferredTarget: input.inferredTarget,
    result,
    view,
    flags,
    ...(input.askAnyway === true ? { askAnyway: true } : {}),
  });
  await input.beforeExecute?.();
  const progress = ctx.progress();
  let applied: PushResult;
  try {
    applied = await input.execute(granted, progress.onEvent);
  } catch (err) {
    progress.stop();
    return reportFailure(ctx, err, { view, planned: result, json, durationMs: ctx.io.now() - started, wrap: input.wrapDocument });
  }
  progress.stop();
  const durationMs = ctx.io.now() - started;
  if (json) await printDocument(ctx, view, applied, { status: "applied", durationMs, error: null }, input.wrapSuccessDocument ?? input.wrapDocument);
  else if (ctx.quiet) ctx.out([applyCompleteLine(applied, durationMs)]);
  else ctx.out(renderApplyComplete(applied, durationMs));
  await input.onSuccess?.(applied.applied.length > 0 ? `branch ${shown(view.branchName)}` : undefined);
  return (await input.afterSuccess?.(applied)) ?? 0;
}

/** Reports a partial failure or an interrupt with the lists of what happened; rethrows anything else. */
export async function reportFailure(ctx: CommandContext, err: unknown, options: { view: ViewTarget; planned: PushResult; json: boolean; durationMs: number; wrap: Wrap }): Promise<number> {
  if (isPlatformError(err, ErrorCode.PUSH_ABORTED)) {
    throw new PlatformError(ErrorCode.PUSH_ABORTED, `Branch ${shown(options.view.branchName)} changed while applying; nothing was changed. Re-run svc config plan.`, {
      details: err.details,
    });
  }
  const partial = isPlatformError(err, ErrorCode.APPLY_FAILED) || isPlatformError(err, ErrorCode.CANCELLED);
  if (!partial) throw err;
  const view = describeError(err);
  const carried = (err.details as { result?: PushResult }).result;
  const result: PushResult = carried ?? { ...options.planned, dryRun: false, applied: [], failed: [], skipped: [] };
  // An interrupt exits 130 whichever error the engine ended with.
  const code = ctx.signal.aborted ? 130 : exitCodeFor(err);
  ctx.err(renderErrorText(view, ctx.verbose));
  if (options.json) {
    const status = code === 130 ? "aborted" : result.applied.length > 0 ? "partial" : "failed";
    await printDocument(ctx, options.view, result, { status, durationMs: options.durationMs, error: toJsonError(view), changeErrors: changeErrors(result) }, options.wrap);
  } else {
    ctx.out(renderOutcomeLists(result, ctx.styleFor("stdout")));
  }
  return code;
}
