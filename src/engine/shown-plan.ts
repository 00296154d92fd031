/**
 * The CLI's `apply` of a plan it has just shown, in the same process (internal: not part of
 * `svc-config/v1`). What is shown is what runs, as with a saved plan, but without planning from
 * scratch again: the branch is read again (every wave the plan read; the second sent with the
 * first, its answers used when the first shows the same branch) and diffed against the very
 * policy evaluation, archives and function fingerprints the shown plan was computed from, with
 * the clock and `allowDataLoss` of the apply; the shown plan runs only when that diff, its state
 * fingerprint and its warnings equal the shown plan's as values, and the branch is the one the
 * policy was evaluated for. Anything else goes to `applyPlan` of the shown plan, which reads,
 * evaluates, bundles and plans afresh and refuses (`PLATFORM_STALE_PLAN`) unless the branch
 * plans exactly what was shown.
 */
import { isDeepStrictEqual } from "node:util";
import type { PolicyConfig } from "../config/policy-types.js";
import type { PushResult } from "../model/plan.js";
import { withApiEvents } from "./events.js";
import { type PlanOptions, ownOptions, prepareRuntime } from "./options.js";
import { type PreparedPlan, preparePlan } from "./prepare-plan.js";
import type { BundleHeadStart } from "./bundle-head-start.js";
import { gateAndExecute, pushConfigInRun, targetOf } from "./push-config.js";
import { type ApplyPlanOptions, applyPlan } from "./saved-plan.js";
import { toSavedPlan } from "./saved-plan-format.js";
import { readSelection, selectPrepared } from "./select-changes.js";

/** What a shown plan was computed from, kept beside its result while the result lives. */
interface Shown {
  config: PolicyConfig;
  /** The plan's `baseDir`: the policy was evaluated with it. */
  baseDir: string | undefined;
  prepared: PreparedPlan;
}

const shownPlans = new WeakMap<PushResult, Shown>();

/**
 * `plan` (a dry run of `config`), keeping what its result was computed from so that
 * {@link applyShownPlan} can run it without planning from scratch again. The result is `plan`'s;
 * `headStart`, builds started when the policy was loaded, is taken when it bundles this plan's functions.
 */
export function planToShow(config: PolicyConfig, options: PlanOptions, headStart?: BundleHeadStart): Promise<PushResult> {
  return pushConfigInRun(config, { ...options, dryRun: true, updateExisting: true }, {
    ...(headStart === undefined ? {} : { headStart }),
    onPlanned: (result, prepared) => shownPlans.set(result, { config, baseDir: options.baseDir, prepared }),
  });
}

/**
 * Applies `shown`, the result of {@link planToShow} in this process, with the apply's options
 * (the same `config`, project and branch): the branch is read again and the shown plan runs only
 * when nothing it was computed from changed (see the file's comment); otherwise exactly
 * `applyPlan(toSavedPlan(shown), options)`. Throws what `applyPlan` throws. The plan's bundle
 * cache writes may still be under way: the changes do not wait for them (an archive whose entry is
 * not yet complete is sent from the bytes it was planned from), and the caller waits for them before
 * it ends.
 */
export async function applyShownPlan(shown: PushResult, given: ApplyPlanOptions): Promise<PushResult> {
  const options = ownOptions(given);
  const kept = shownPlans.get(shown);
  const fromScratch = (): Promise<PushResult> => applyPlan(toSavedPlan(shown), given);
  const same = kept !== undefined && kept.config === options.config && kept.baseDir === options.baseDir && shown.projectId === options.projectId && shown.branchId === options.branchId;
  if (!same) return fromScratch();
  const rt = withApiEvents(prepareRuntime("applyPlan", options));
  const before = kept.prepared;
  let sameTarget = false;
  const full = await preparePlan(rt, {
    ids: { projectId: options.projectId, branchId: options.branchId },
    resolveDesired: (base) => {
      // Compared as plain key-value records: the evaluation keeps its own copy of the target.
      sameTarget = isDeepStrictEqual({ ...targetOf(base, true) }, { ...before.desired.target });
      return before.desired;
    },
    // The second wave goes out with the first: used when the branch is the one the plan read.
    readAhead: { branch: before.base.branch, desired: before.desired },
    archives: before.archives,
    archiveWarnings: before.bundleWarnings,
    functionTags: before.functionTags,
    allowDataLoss: options.allowDataLoss ?? false,
    now: () => new Date(),
  });
  const fresh = selectPrepared(full, readSelection(shown.selection ?? {}));
  if (!sameTarget || !isDeepStrictEqual(fresh.diff, before.diff) || !isDeepStrictEqual(fresh.warnings, before.warnings)) return fromScratch();
  // The shown changes (equal to the fresh ones) run, against the live state just read.
  return gateAndExecute(rt, { ...fresh, diff: before.diff }, {
    dryRun: false,
    updateExisting: options.updateExisting ?? false,
    allowProtectedBranch: options.allowProtectedBranch ?? false,
    ...(options.checks === undefined ? {} : { checks: options.checks }),
  });
}
