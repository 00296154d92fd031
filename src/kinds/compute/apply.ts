/** The compute kind's handler (`update:compute` patches the read-write endpoint), its settings of a created branch and their pair check. */
import { toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import type { ApiProject } from "../../api/platform-api.js";
import type { KindCreate } from "../../apply/kind-create.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import type { ConflictReport } from "../../model/plan.js";
import { COMPUTE_PAIR_RULE, COMPUTE_SETTINGS, computePairProblem } from "./fields.js";
import { endpointSettingsOf, plannedComputeOf } from "./wire.js";

/** `PATCH /projects/{p}/endpoints/{e}` with the planned values of the changed settings, then waits. */
export async function applyComputeUpdate(ctx: ExecutionContext, change: Change, op: OpOf<"compute-update">, planned: PlannedOf<"compute-update">): Promise<HandlerDetails> {
  const endpoint = toWire(COMPUTE_SETTINGS, planned);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateEndpoint({ projectId: ctx.projectId, endpointId: op.endpointId, endpoint }),
    async () => {
      const endpoints = await ctx.request(() => ctx.api.listEndpoints(branchRef(ctx)));
      const found: Readonly<Record<string, unknown>> | undefined = endpoints.find((e) => e.id === op.endpointId);
      if (found === undefined) return undefined;
      return Object.entries(endpoint).every(([k, v]) => found[k] === v);
    },
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/**
 * The `COMPUTE_PAIR_INVALID` conflict of a new branch: with one bound
 * declared, the platform takes the other from the project's default compute, and the pair
 * must still be valid. Without a project default for the other bound nothing can be checked.
 */
export function computePairConflict(desired: ResolvedPolicy, project: ApiProject, branchName: string): ConflictReport | undefined {
  const want = desired.branch.compute ?? {};
  const defaults = project.default_endpoint_settings ?? {};
  const min = want.minCu ?? defaults.autoscaling_limit_min_cu;
  const max = want.maxCu ?? defaults.autoscaling_limit_max_cu;
  if ((want.minCu === undefined && want.maxCu === undefined) || min === undefined || max === undefined || computePairProblem(min, max) === undefined) return undefined;
  const field = want.minCu === undefined ? "autoscalingLimitMaxCu" : "autoscalingLimitMinCu";
  const oneBound = (want.minCu === undefined) !== (want.maxCu === undefined);
  return {
    kind: "compute",
    identifier: branchName,
    field,
    current: { autoscalingLimitMinCu: defaults.autoscaling_limit_min_cu ?? null, autoscalingLimitMaxCu: defaults.autoscaling_limit_max_cu ?? null },
    desired: { autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max },
    reason:
      `${oneBound ? `the declared ${field} with the project's default other bound` : "the declared bounds"} give ${min}–${max} CU, ` +
      `which the platform rejects (${COMPUTE_PAIR_RULE}); declare both bounds in postgres.computeSettings. Nothing was created`,
    blocking: true,
    code: "COMPUTE_PAIR_INVALID",
  };
}

/** A created branch's read-write compute with the declared settings (the others are the project's defaults), refused when the pair is invalid. */
export const computeCreate: KindCreate = {
  part: (desired) => {
    const endpoint = endpointSettingsOf(desired.branch.compute ?? {});
    return { endpoint, after: plannedComputeOf(endpoint) };
  },
  conflict: computePairConflict,
};
