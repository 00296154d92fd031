import { FEATURE_KINDS, KIND_NAMES, type FeatureKind, type ResourceKind } from "../kinds/index.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { PlanSummary } from "../model/plan.js";
import { diffBranch } from "./branch.js";
import { diffCompute } from "../kinds/compute/diff.js";
import { diffBuckets, pruneBuckets } from "../kinds/bucket/diff.js";
import { diffDatabases, pruneDatabases } from "./databases.js";
import { diffDomains } from "../kinds/domain/diff.js";
import { diffFunctions, pruneFunctions } from "./functions.js";
import { orderChanges } from "./order-changes.js";
import type { DiffOptions, DiffResult, DiffSink } from "./plan-types.js";
import type { PlannedChange } from "../model/planned-change.js";
import { diffRoles, pruneRoles } from "./roles.js";
import { diffAuth, diffDataApi } from "./services.js";
import { stateFingerprint } from "./state-fingerprint.js";
import { diffTriggers } from "./triggers.js";

/** One kind's part of the diff: its creates and updates, and the deletes prune plans. */
interface KindDiff {
  diff(desired: ResolvedPolicy, live: LiveState, options: DiffOptions, sink: DiffSink): void;
  prune?(desired: ResolvedPolicy, live: LiveState, options: DiffOptions, sink: DiffSink): void;
}

/**
 * The diff of every kind of the registry: visited in rank order, then pruned in the reverse order
 * (dependents are deleted before what they depend on).
 */
const KIND_DIFFS: Record<ResourceKind, KindDiff> = {
  branch: { diff: (desired, live, options, sink) => diffBranch(desired, live, options.now, sink) },
  compute: { diff: (desired, live, _options, sink) => diffCompute(desired, live, sink) },
  role: { diff: (desired, live, _options, sink) => diffRoles(desired, live, sink), prune: (desired, live, _options, sink) => pruneRoles(desired, live, sink) },
  database: {
    diff: (desired, live, _options, sink) => diffDatabases(desired, live, sink),
    prune: (desired, live, options, sink) => pruneDatabases(desired, live, options.allowDataLoss, sink),
  },
  auth: { diff: (desired, live, _options, sink) => diffAuth(desired, live, sink) },
  dataApi: { diff: (desired, live, _options, sink) => diffDataApi(desired, live, sink) },
  bucket: {
    diff: (desired, live, _options, sink) => diffBuckets(desired, live, sink),
    prune: (desired, live, options, sink) => pruneBuckets(desired, live, options.allowDataLoss, sink),
  },
  function: {
    diff: (desired, live, options, sink) => diffFunctions(desired, live, options.functionTags, sink),
    prune: (desired, live, _options, sink) => pruneFunctions(desired, live, sink),
  },
  trigger: { diff: (desired, live, _options, sink) => diffTriggers(desired, live, sink) },
  domain: { diff: (desired, live, _options, sink) => diffDomains(desired, live, sink) },
};

/** Whether the policy declares anything of a kind that needs a platform feature. */
const DECLARES: Record<FeatureKind, (desired: ResolvedPolicy) => boolean> = {
  bucket: (desired) => desired.buckets.length > 0,
  function: (desired) => desired.functions.length > 0,
  trigger: (desired) => desired.triggers.length > 0,
  domain: (desired) => desired.functions.some((f) => f.customDomains.length > 0),
};

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
  const blocked = new Set<ResourceKind>();
  for (const kind of FEATURE_KINDS.values()) {
    const reason = options.unavailable?.[kind];
    if (reason === undefined || !DECLARES[kind](desired)) continue;
    blocked.add(kind);
    sink.conflicts.push({
      kind, identifier: live.branch.name, field: "*", current: null, desired: null, blocking: true, code: "FEATURE_UNAVAILABLE",
      reason: `${kind}s are not available on this branch: ${reason}`,
    });
  }
  for (const kind of KIND_NAMES) {
    if (!blocked.has(kind)) KIND_DIFFS[kind].diff(desired, live, options, sink);
  }
  for (const kind of [...KIND_NAMES].reverse()) KIND_DIFFS[kind].prune?.(desired, live, options, sink);
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
