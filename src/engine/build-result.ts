import type { ExecutionOutcome } from "../apply/execute-plan.js";
import { toAppliedChange } from "../apply/execute-plan.js";
import { summarize } from "../diff/diff-state.js";
import { KIND_MODULES } from "../kinds/modules.js";
import type { ConflictReport, EngineWarning, PushResult } from "../model/plan.js";
import type { PreparedPlan } from "./prepare-plan.js";
import { digestsOf } from "./change-digests.js";
import { recordDigests } from "./result-digests.js";

/** What the kinds add to the result: their fields and the warnings the run gives, in rank order. */
function kindParts(prepared: PreparedPlan, conflicts: readonly ConflictReport[], outcome: ExecutionOutcome | undefined): { fields: Partial<PushResult>; warnings: EngineWarning[] } {
  const input = { desired: prepared.desired, live: prepared.live, conflicts, outcome };
  const fields: Partial<PushResult> = {};
  const warnings: EngineWarning[] = [];
  for (const kind of KIND_MODULES) {
    const part = kind.result?.fields?.(input);
    if (part === undefined) continue;
    Object.assign(fields, part.fields);
    warnings.push(...part.warnings);
  }
  return { fields, warnings };
}

/**
 * Assembles the `PushResult`: of a dry run (`outcome` undefined, `dryRun`
 * true), of a refused push (no outcome, `dryRun` false) or of an execution.
 */
export function buildResult(prepared: PreparedPlan, conflicts: readonly ConflictReport[], outcome: ExecutionOutcome | undefined, dryRun = outcome === undefined): PushResult {
  const { base, diff, archives } = prepared;
  const changes = diff.changes.map((p) => p.change);
  const kinds = kindParts(prepared, conflicts, outcome);
  const bundles: PushResult["bundles"] = {};
  for (const [slug, archive] of [...archives].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) bundles[slug] = { zipSha256: archive.zipSha256, zipBytes: archive.zipBytes };
  const result: PushResult = {
    projectId: base.project.id,
    ...(base.project.orgId ? { orgId: base.project.orgId } : {}),
    branchId: base.branch.id,
    branchName: base.branch.name,
    dryRun,
    applied: outcome !== undefined ? outcome.applied : dryRun ? changes.map((c) => toAppliedChange(c, base.branch.name, "planned")) : [],
    conflicts: [...conflicts],
    ...kinds.fields,
    changes,
    failed: outcome?.failed ?? [],
    skipped: outcome?.skipped ?? [],
    unmanaged: diff.unmanaged,
    warnings: [...prepared.warnings, ...kinds.warnings],
    summary: summarize(diff.changes, conflicts.length),
    stateFingerprint: diff.stateFingerprint,
    bundles,
    ...(prepared.selection === undefined ? {} : { selection: prepared.selection }),
  };
  // A dry run's digests are hashed when first asked for: by a saved plan, or by the apply of the
  // shown plan, which hashes the same list while it waits for its changes' answers.
  recordDigests(result, outcome === undefined ? () => digestsOf(diff.changes) : digestsOf(diff.changes));
  return result;
}
