import type { ResourceKind } from "../kinds/index.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { PlanSummary } from "../model/plan.js";
import { orderChanges } from "./order-changes.js";
import type { DiffOptions, DiffResult, DiffSink, KindDiffer } from "./plan-types.js";
import type { PlannedChange } from "../model/planned-change.js";
import { stateFingerprint } from "./state-fingerprint.js";

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
 * The pure diff of `kinds` (in rank order): (desired, live, options) → ordered changes, blocking
 * conflicts, unmanaged entries, warnings, the state fingerprint (unless the options ask for none)
 * and the summary. Each kind diffs
 * in rank order, then prunes in the reverse order (dependents are deleted before what they depend
 * on); a kind whose platform feature is unavailable and that the policy declares is not diffed but
 * reported as a blocking conflict. No I/O, no clock, no randomness.
 */
export function diffKinds(kinds: readonly KindDiffer[], desired: ResolvedPolicy, live: LiveState, options: DiffOptions): DiffResult {
  const sink: DiffSink = { changes: [], conflicts: [], unmanaged: [], warnings: [] };
  for (const key of desired.deprecatedKeys) {
    sink.warnings.push({ code: "DEPRECATED_PREVIEW_KEY", message: `${key} is deprecated; move it to the top-level key` });
  }
  const blocked = new Set<ResourceKind>();
  for (const { name: kind, declares } of kinds) {
    const reason = options.unavailable?.[kind];
    if (reason === undefined || declares === undefined || !declares(desired)) continue;
    blocked.add(kind);
    sink.conflicts.push({
      kind, identifier: live.branch.name, field: "*", current: null, desired: null, blocking: true, code: "FEATURE_UNAVAILABLE",
      reason: `${kind}s are not available on this branch: ${reason}`,
    });
  }
  for (const kind of kinds) {
    if (!blocked.has(kind.name)) kind.diff(desired, live, options, sink);
  }
  for (const kind of [...kinds].reverse()) kind.prune?.(desired, live, options, sink);
  const rank = new Map(kinds.map((kind, position) => [kind.name, position]));
  const changes = orderChanges(sink.changes, (kind) => rank.get(kind) ?? kinds.length);
  const unmanaged = [...sink.unmanaged].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return {
    changes,
    conflicts: sink.conflicts,
    unmanaged,
    warnings: sink.warnings,
    stateFingerprint: options.stateFingerprint === false ? "" : stateFingerprint(live, kinds),
    summary: summarize(changes, sink.conflicts.length),
  };
}
