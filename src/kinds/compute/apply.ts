/** The compute kind's handler: `update:compute` patches the read-write endpoint. */
import { toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import { COMPUTE_SETTINGS } from "./fields.js";

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
