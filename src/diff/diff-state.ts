import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { PlanSummary } from "../model/plan.js";
import { diffBranch, diffCompute } from "./branch.js";
import { diffBuckets, pruneBuckets } from "./buckets.js";
import { diffDatabases, pruneDatabases } from "./databases.js";
import { diffDomains } from "./domains.js";
import { diffFunctions, pruneFunctions } from "./functions.js";
import { orderChanges } from "./order-changes.js";
import type { DiffOptions, DiffResult, DiffSink } from "./plan-types.js";
import type { PlannedChange } from "../model/planned-change.js";
import { diffRoles, pruneRoles } from "./roles.js";
import { diffAuth, diffDataApi } from "./services.js";
import { stateFingerprint } from "./state-fingerprint.js";
import { diffTriggers } from "./triggers.js";

type FeatureKind = "bucket" | "function" | "trigger" | "domain";

function declares(desired: ResolvedPolicy, kind: FeatureKind): boolean {
  switch (kind) {
    case "bucket": return desired.buckets.length > 0;
    case "function": return desired.functions.length > 0;
    case "trigger": return desired.triggers.length > 0;
    case "domain": return desired.functions.some((f) => f.customDomains.length > 0);
  }
}

/** Counts of a plan: a replace counts in both create and delete. */
export function summarize(changes: readonly PlannedChange[], conflicts: number): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, conflicts };
  for (const { change } of changes) {
    if (change.action === "replace") {
      summary.create += 1;
      summary.delete += 1;
    } else summary[change.action] += 1;
  }
  return summary;
}

/**
 * The pure diff: (desired, live, options) → ordered changes, blocking conflicts, unmanaged
 * entries, warnings, the state fingerprint and the summary. No I/O, no clock, no randomness.
 */
export function diffState(desired: ResolvedPolicy, live: LiveState, options: DiffOptions): DiffResult {
  const sink: DiffSink = { changes: [], conflicts: [], unmanaged: [], warnings: [] };
  for (const key of desired.deprecatedKeys) {
    sink.warnings.push({ code: "DEPRECATED_PREVIEW_KEY", message: `${key} is deprecated; move it to the top-level key` });
  }
  const blocked = new Set<FeatureKind>();
  for (const kind of ["bucket", "function", "trigger", "domain"] as const) {
    const reason = options.unavailable?.[kind];
    if (reason === undefined || !declares(desired, kind)) continue;
    blocked.add(kind);
    sink.conflicts.push({
      kind, identifier: live.branch.name, field: "*", current: null, desired: null, blocking: true, code: "FEATURE_UNAVAILABLE",
      reason: `${kind}s are not available on this branch: ${reason}`,
    });
  }
  diffBranch(desired, live, options.now, sink);
  diffCompute(desired, live, sink);
  diffRoles(desired, live, sink);
  diffDatabases(desired, live, sink);
  diffAuth(desired, live, sink);
  diffDataApi(desired, live, sink);
  if (!blocked.has("bucket")) diffBuckets(desired, live, sink);
  if (!blocked.has("function")) diffFunctions(desired, live, options.functionTags, sink);
  if (!blocked.has("trigger")) diffTriggers(desired, live, sink);
  if (!blocked.has("domain")) diffDomains(desired, live, sink);
  pruneFunctions(desired, live, sink);
  pruneBuckets(desired, live, options.allowDataLoss, sink);
  pruneDatabases(desired, live, options.allowDataLoss, sink);
  pruneRoles(desired, live, sink);
  const changes = orderChanges(sink.changes);
  const unmanaged = [...sink.unmanaged].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return {
    changes,
    conflicts: sink.conflicts,
    unmanaged,
    warnings: sink.warnings,
    stateFingerprint: stateFingerprint(live),
    summary: summarize(changes, sink.conflicts.length),
  };
}
