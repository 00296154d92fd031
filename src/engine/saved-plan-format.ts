/**
 * `toSavedPlan`, apart from `applyPlan` (`saved-plan.ts`, which also declares `SavedPlan`), so
 * that turning a plan into its file loads nothing of the engine.
 */
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { PushResult } from "../model/plan.js";
import { LIBRARY_VERSION } from "../version.js";
import { recordedDigests } from "./result-digests.js";
import type { SavedPlan } from "./saved-plan.js";

/**
 * Turns the result of a dry run made in this process into a saved plan. Throws
 * `PLATFORM_INVALID_OPTIONS` for an applied result or one not produced by `plan`.
 */
export function toSavedPlan(result: PushResult, now: Date = new Date()): SavedPlan {
  const digests = recordedDigests(result);
  if (!result.dryRun || digests === undefined) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, "toSavedPlan takes the result of plan (a dry run made by this process); run plan and pass its result.", {
      details: { option: "result", value: result.dryRun ? "not produced by plan" : "not a dry run" },
    });
  }
  return {
    formatVersion: 1,
    libraryVersion: LIBRARY_VERSION,
    createdAt: now.toISOString(),
    projectId: result.projectId,
    branchId: result.branchId,
    branchName: result.branchName,
    stateFingerprint: result.stateFingerprint,
    bundles: result.bundles,
    changesDigest: digests.changesDigest,
    changeDigests: { ...digests.changeDigests },
    changes: result.changes,
    conflicts: result.conflicts,
    unmanaged: result.unmanaged,
    warnings: result.warnings,
    summary: result.summary,
    ...(result.selection === undefined ? {} : { selection: { targets: result.selection.targets, exclude: result.selection.exclude } }),
    ...(result.verification === undefined ? {} : { verification: result.verification }),
  };
}
