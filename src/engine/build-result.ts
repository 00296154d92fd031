import type { ExecutionOutcome } from "../apply/execute-plan.js";
import { toAppliedChange } from "../apply/execute-plan.js";
import { summarize } from "../diff/diff-state.js";
import type { ConflictReport, PushResult } from "../model/plan.js";
import type { PreparedPlan } from "./prepare-plan.js";
import { digestsOf } from "./change-digests.js";
import { recordDigests } from "./result-digests.js";

function declaredDomains(prepared: PreparedPlan, conflicts: readonly ConflictReport[], outcome: ExecutionOutcome | undefined): PushResult["customDomains"] {
  const blocked = new Set(conflicts.filter((c) => c.kind === "domain").map((c) => c.identifier));
  const notDone = new Set([...(outcome?.failed ?? []), ...(outcome?.skipped ?? [])].map((f) => f.change.id));
  const applied = new Map((outcome?.applied ?? []).map((a) => [a.id, a]));
  const liveTargets = new Map((prepared.live.customDomains ?? []).map((d) => [d.domain, d.cnameTarget]));
  const list: NonNullable<PushResult["customDomains"]> = [];
  for (const fn of prepared.desired.functions) {
    for (const domain of fn.customDomains) {
      if (blocked.has(domain)) continue;
      const ids = [`create:domain.${domain}`, `replace:domain.${domain}`];
      if (ids.some((id) => notDone.has(id))) continue;
      const fromApply = ids.map((id) => applied.get(id)?.details?.cnameTarget).find((t) => typeof t === "string");
      const cnameTarget = typeof fromApply === "string" ? fromApply : liveTargets.get(domain);
      list.push({ domain, slug: fn.slug, ...(cnameTarget === undefined ? {} : { cnameTarget }) });
    }
  }
  return list.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** `NO_CNAME_TARGET` for hostnames this run registered without a CNAME target. */
function newDomainWarnings(outcome: ExecutionOutcome | undefined): PushResult["warnings"] {
  return (outcome?.applied ?? [])
    .filter((a) => a.kind === "domain" && a.details?.cnameTarget === "")
    .map((a) => ({ code: "NO_CNAME_TARGET", message: `hostname ${a.identifier} has no CNAME target: the region has no custom-domain front door`, address: a.address }));
}

/**
 * Assembles the `PushResult`: of a dry run (`outcome` undefined, `dryRun`
 * true), of a refused push (no outcome, `dryRun` false) or of an execution.
 */
export function buildResult(prepared: PreparedPlan, conflicts: readonly ConflictReport[], outcome: ExecutionOutcome | undefined, dryRun = outcome === undefined): PushResult {
  const { base, diff, archives } = prepared;
  const changes = diff.changes.map((p) => p.change);
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
    customDomains: declaredDomains(prepared, conflicts, outcome),
    changes,
    failed: outcome?.failed ?? [],
    skipped: outcome?.skipped ?? [],
    unmanaged: diff.unmanaged,
    warnings: [...prepared.warnings, ...newDomainWarnings(outcome)],
    summary: summarize(diff.changes, conflicts.length),
    stateFingerprint: diff.stateFingerprint,
    bundles,
    ...(prepared.selection === undefined ? {} : { selection: prepared.selection }),
  };
  recordDigests(result, digestsOf(diff.changes));
  return result;
}
