import { withMemory } from "./run-archives.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { StalePlanError } from "../errors/engine-errors.js";
import type { Change, ConflictReport, EngineWarning, PlanSummary, PushResult, UnmanagedEntry } from "../model/plan.js";
import type { PlanVerification } from "../model/plan.js";
import { buildResult } from "./build-result.js";
import { digestsOf } from "./change-digests.js";
import { overrideConflicts } from "../apply/gate-plan.js";
import type { PreparedPlan } from "./prepare-plan.js";
import { type ComparedPlan, savedPlanDifferences } from "./saved-plan-check.js";
import type { ApplyOptions } from "./options.js";
import { withApiEvents } from "./events.js";
import { ownOptions, prepareRuntime } from "./options.js";
import { preparePlan } from "./prepare-plan.js";
import { gateAndExecute, resolverFor } from "./push-config.js";
import { type Selection, readSelection, selectPrepared } from "./select-changes.js";

/** A saved dry-run plan: versioned, secret-free JSON. */
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
  /** SHA-256 of the internal change list, which includes each env tag the plan derived. */
  changesDigest: string;
  /**
   * SHA-256 of each internal change, by change id: names the change whose unseen part (an env
   * value, as its hardened tag) changed since the plan. Absent in plans saved by older versions.
   */
  changeDigests?: Record<string, string>;
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

function firstBundleMismatch(saved: unknown, actual: SavedPlan["bundles"]): { expected: string; actual: string } | undefined {
  const recorded = new Map(Object.entries(typeof saved === "object" && saved !== null ? saved : {}));
  const slugs = [...new Set([...recorded.keys(), ...Object.keys(actual)])].sort();
  for (const slug of slugs) {
    const entry: unknown = recorded.get(slug);
    const expected = typeof entry === "object" && entry !== null ? (entry as { zipSha256?: unknown }).zipSha256 : undefined;
    const now = Object.hasOwn(actual, slug) ? actual[slug]?.zipSha256 : undefined;
    if (expected !== now) return { expected: `${slug}:${typeof expected === "string" ? expected : "none"}`, actual: `${slug}:${now ?? "none"}` };
  }
  return undefined;
}

/**
 * Applies a saved plan exactly: the target comes from the plan (options naming
 * another project or branch are refused); the branch is read and the policy planned afresh, and
 * the plan runs only when the fresh plan equals the saved one in every field a view shows and
 * in each change's digest (`saved-plan-check.ts`). Anything else is `StalePlanError` listing
 * the differences in `details.differences` (names, never values); then it gates like `apply`.
 */
export async function applyPlan(saved: SavedPlan, given: ApplyPlanOptions): Promise<PushResult> {
  const options = ownOptions(given);
  const doc: unknown = saved;
  const formatVersion = typeof doc === "object" && doc !== null ? (doc as { formatVersion?: unknown }).formatVersion : undefined;
  if (formatVersion !== 1) throw new StalePlanError({ reason: "format", expected: 1, actual: formatVersion });
  const rt = withApiEvents(prepareRuntime("applyPlan", options));
  if (saved.projectId !== options.projectId || saved.branchId !== options.branchId) {
    throw new StalePlanError({ reason: "target", expected: `${String(saved.projectId)}/${String(saved.branchId)}`, actual: `${options.projectId}/${options.branchId}` });
  }
  const selection = readSelection(saved.selection ?? {});
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
  const bundles = Object.fromEntries([...prepared.archives].map(([slug, a]) => [slug, { zipSha256: a.zipSha256, zipBytes: a.zipBytes }]));
  const mismatch = firstBundleMismatch(saved.bundles, bundles);
  if (mismatch !== undefined) throw new StalePlanError({ reason: "bundle", ...mismatch });
  const differences = savedPlanDifferences(saved, freshView(prepared, saved));
  if (prepared.diff.stateFingerprint !== saved.stateFingerprint) {
    throw new StalePlanError({ reason: "state", expected: saved.stateFingerprint, actual: prepared.diff.stateFingerprint, currentChangeCount: count, differences });
  }
  if (differences.length > 0) {
    throw new StalePlanError({ reason: "changes", expected: saved.changesDigest, actual: digestsOf(prepared.diff.changes).changesDigest, currentChangeCount: count, differences });
  }
  return gateAndExecute(rt, prepared, {
    dryRun: false,
    updateExisting: options.updateExisting ?? false,
    allowProtectedBranch: options.allowProtectedBranch ?? false,
    ...(options.checks === undefined ? {} : { checks: options.checks }),
  });
}

/**
 * The fresh plan as a saved plan would record it: its conflicts as the saved plan's dry run
 * reported them (blocking ones, plus one `OVERRIDE_NOT_CONFIRMED` per held change when the saved
 * plan was made without `updateExisting` and lists them).
 */
function freshView(prepared: PreparedPlan, saved: SavedPlan): ComparedPlan {
  const changes = prepared.diff.changes.map((p) => p.change);
  const listsHeld = Array.isArray(saved.conflicts) && saved.conflicts.some((c) => typeof c === "object" && c !== null && c.code === "OVERRIDE_NOT_CONFIRMED");
  const held = listsHeld ? overrideConflicts(changes, prepared.base.branch.name) : [];
  const result = buildResult(prepared, [...prepared.diff.conflicts, ...held], undefined);
  return { ...result, ...digestsOf(prepared.diff.changes) };
}
