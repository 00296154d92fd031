/** The compute kind's pure diff: the read-write compute's declared settings against the live ones. */
import { planKeyOf, sameFieldValue, strongestClass } from "../../model/kinds/field.js";
import type { Json } from "../../model/json.js";
import type { LiveState } from "../../model/live-state.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import { makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { COMPUTE_PAIR_RULE, COMPUTE_SETTINGS, type ComputeValues, computePairProblem } from "./fields.js";

/**
 * Diffs the read-write compute's declared fields. Emits `update:compute` (override, after
 * `update:branch`) or the `NO_COMPUTE` / `COMPUTE_PAIR_INVALID` conflicts.
 */
export function diffCompute(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  const want = desired.branch.compute;
  if (want === undefined) return;
  const declared = Object.entries(want).filter(([, v]) => v !== undefined);
  if (declared.length === 0) return;
  const compute = live.compute;
  if (compute === null) {
    sink.conflicts.push({
      kind: "compute",
      identifier: live.branch.name,
      field: "computeSettings",
      current: null,
      desired: { ...want },
      reason: `branch "${live.branch.name}" has no read-write compute; create one in the console or remove postgres.computeSettings`,
      blocking: true,
      code: "NO_COMPUTE",
    });
    return;
  }
  const min = want.minCu ?? compute.minCu;
  const max = want.maxCu ?? compute.maxCu;
  if ((want.minCu === undefined) !== (want.maxCu === undefined) && computePairProblem(min, max) !== undefined) {
    const field = want.minCu === undefined ? "autoscalingLimitMaxCu" : "autoscalingLimitMinCu";
    sink.conflicts.push({
      kind: "compute",
      identifier: live.branch.name,
      field,
      current: { autoscalingLimitMinCu: compute.minCu, autoscalingLimitMaxCu: compute.maxCu },
      desired: { autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max },
      reason:
        `the declared ${field} with the live other bound gives ${min}–${max} CU, which the platform rejects ` +
        `(${COMPUTE_PAIR_RULE}); declare both bounds`,
      blocking: true,
      code: "COMPUTE_PAIR_INVALID",
    });
    return;
  }
  const changed = COMPUTE_SETTINGS.filter((field) => want[field.modelKey] !== undefined && !sameFieldValue(field, want[field.modelKey], compute[field.modelKey]));
  if (changed.length === 0) return;
  const before: { [key: string]: Json } = {};
  for (const field of COMPUTE_SETTINGS) before[planKeyOf(field)] = compute[field.modelKey];
  const after = { ...before };
  const patch: Partial<ComputeValues> = {};
  for (const field of changed) {
    const value = want[field.modelKey];
    after[planKeyOf(field)] = value ?? null;
    patch[field.modelKey] = value;
  }
  const fields = changed.map(planKeyOf);
  const hasBranchUpdate = sink.changes.some((c) => c.change.id === "update:branch");
  sink.changes.push(
    makeChange({
      address: "compute",
      kind: "compute",
      action: "update",
      class: strongestClass(changed),
      fields,
      before,
      after,
      reason: `the policy sets ${fields.join(", ")} of compute ${compute.endpointId}`,
      dependsOn: hasBranchUpdate ? ["update:branch"] : [],
      op: { type: "compute-update", endpointId: compute.endpointId },
      planned: patch,
    }),
  );
}
