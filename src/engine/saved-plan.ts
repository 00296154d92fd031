import { withMemory } from "./run-archives.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { ErrorCode } from "../errors/codes.js";
import { StalePlanError } from "../errors/engine-errors.js";
import { PlatformError } from "../errors/platform-error.js";
import type { Change, ConflictReport, EngineWarning, PlanSummary, PushResult, UnmanagedEntry } from "../model/plan.js";
import type { PlanVerification } from "../model/plan.js";
import { LIBRARY_VERSION } from "../version.js";
import { changesDigestOf, recordedDigest } from "./build-result.js";
import type { ApplyOptions } from "./options.js";
import { withApiEvents } from "./events.js";
import { prepareRuntime } from "./options.js";
import { preparePlan } from "./prepare-plan.js";
import { gateAndExecute, resolverFor } from "./push-config.js";
import { type Selection, readSelection, selectPrepared } from "./select-changes.js";

/** A saved dry-run plan: versioned, secret-free JSON (engine.md §9). */
export interface SavedPlan {
  formatVersion: 1;
  libraryVersion: string;
  /** Informational only. */
  createdAt: string;
  projectId: string;
  branchId: string;
  branchName: string;
  stateFingerprint: string;
  bundles: Record<string, { zipSha256: string; zipBytes: number }>;
  /** SHA-256 of the internal change list, which includes each scrypt-hardened `configTag`. */
  changesDigest: string;
  changes: Change[];
  conflicts: ConflictReport[];
  unmanaged: UnmanagedEntry[];
  warnings: EngineWarning[];
  summary: PlanSummary;
  /** The `targets` / `exclude` the plan was made with; `applyPlan` applies the same selection. */
  selection?: Selection;
  /** The plan's verification on a local replica, when it was verified (`verify: true`). */
  verification?: PlanVerification;
}

/** `applyPlan` options: `apply`'s plus the policy, needed because saved plans hold no env values. */
export interface ApplyPlanOptions extends ApplyOptions {
  config: PolicyConfig;
}

/**
 * Turns the result of a dry run made in this process into a saved plan. Throws
 * `PLATFORM_INVALID_OPTIONS` for an applied result or one not produced by `plan`.
 */
export function toSavedPlan(result: PushResult, now: Date = new Date()): SavedPlan {
  const digest = recordedDigest(result);
  if (!result.dryRun || digest === undefined) {
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
    changesDigest: digest,
    changes: result.changes,
    conflicts: result.conflicts,
    unmanaged: result.unmanaged,
    warnings: result.warnings,
    summary: result.summary,
    ...(result.selection === undefined ? {} : { selection: { targets: result.selection.targets, exclude: result.selection.exclude } }),
    ...(result.verification === undefined ? {} : { verification: result.verification }),
  };
}

function firstBundleMismatch(saved: SavedPlan["bundles"], actual: SavedPlan["bundles"]): { expected: string; actual: string } | undefined {
  const slugs = [...new Set([...Object.keys(saved), ...Object.keys(actual)])].sort();
  for (const slug of slugs) {
    const expected = saved[slug]?.zipSha256;
    const now = actual[slug]?.zipSha256;
    if (expected !== now) return { expected: `${slug}:${expected ?? "none"}`, actual: `${slug}:${now ?? "none"}` };
  }
  return undefined;
}

/**
 * Applies a saved plan exactly (engine.md §9): refuses with `StalePlanError` when the format
 * or target differ, the branch changed, a bundle changed, or the recomputed plan differs
 * (ids or digest: an edited env value shows here); then gates like `apply` and executes.
 */
export async function applyPlan(saved: SavedPlan, options: ApplyPlanOptions): Promise<PushResult> {
  if (saved?.formatVersion !== 1) throw new StalePlanError({ reason: "format", expected: 1, actual: saved?.formatVersion });
  const rt = prepareRuntime("applyPlan", options);
  if (saved.projectId !== options.projectId || saved.branchId !== options.branchId) {
    throw new StalePlanError({ reason: "target", expected: `${saved.projectId}/${saved.branchId}`, actual: `${options.projectId}/${options.branchId}` });
  }
  const selection = readSelection(saved.selection ?? {});
  return withApiEvents(rt.emit, async () => {
    const full = await preparePlan(rt, {
      ids: { projectId: options.projectId, branchId: options.branchId },
      resolveDesired: resolverFor(options.config, options),
      ...withMemory(options.config),
      ...(options.bundleFunction ? { bundleFunction: options.bundleFunction } : {}),
      allowDataLoss: options.allowDataLoss ?? false,
      now: () => new Date(),
    });
    const prepared = selectPrepared(full, selection);
    const count = prepared.diff.changes.length;
    if (prepared.diff.stateFingerprint !== saved.stateFingerprint) {
      throw new StalePlanError({ reason: "state", expected: saved.stateFingerprint, actual: prepared.diff.stateFingerprint, currentChangeCount: count });
    }
    const bundles = Object.fromEntries([...prepared.archives].map(([slug, a]) => [slug, { zipSha256: a.zipSha256, zipBytes: a.zipBytes }]));
    const mismatch = firstBundleMismatch(saved.bundles, bundles);
    if (mismatch !== undefined) throw new StalePlanError({ reason: "bundle", ...mismatch });
    const ids = prepared.diff.changes.map((c) => c.change.id).join(",");
    const digest = changesDigestOf(prepared.diff.changes);
    if (ids !== saved.changes.map((c) => c.id).join(",") || digest !== saved.changesDigest) {
      throw new StalePlanError({ reason: "changes", expected: saved.changesDigest, actual: digest, currentChangeCount: count });
    }
    return gateAndExecute(rt, prepared, {
      dryRun: false,
      updateExisting: options.updateExisting ?? false,
      allowProtectedBranch: options.allowProtectedBranch ?? false,
    });
  });
}
