import type { ApiOperation } from "../../api/platform-api.js";
import { BRANCH_SETTINGS } from "../../model/kinds/branch.js";
import { COMPUTE_SETTINGS } from "../../model/kinds/compute.js";
import { fromPlan, toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../execution-context.js";

type ComputeOp = Extract<ChangeOp, { type: "compute-update" }>;

/** Waits for a mutation's operations without holding a request slot; returns their ids. */
export async function waitFor(ctx: ExecutionContext, changeId: string, operations: readonly ApiOperation[]): Promise<string[]> {
  if (operations.length === 0) return [];
  for (const op of operations) ctx.emit({ type: "wait", changeId, waitingFor: "operation", id: op.id, status: op.status });
  const done = await ctx.api.waitForOperations({ projectId: ctx.projectId, operations });
  for (const op of done) ctx.emit({ type: "wait", changeId, waitingFor: "operation", id: op.id, status: op.status });
  return operations.map((o) => o.id);
}

function sameExpiry(a: string | undefined, b: string | null | undefined): boolean {
  if (b === undefined) return true;
  if (b === null || a === undefined) return (a ?? null) === b;
  return Math.abs(Date.parse(a) - Date.parse(b)) < 1000;
}

/** `PATCH …/branches/{b}` with the planned values of the changed settings (`protected`, `expires_at`), then waits. */
export async function applyBranchUpdate(ctx: ExecutionContext, change: Change): Promise<HandlerDetails> {
  const planned = fromPlan(BRANCH_SETTINGS, change.after, change.fields);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateBranch({ ...branchRef(ctx), branch: toWire(BRANCH_SETTINGS, planned) }),
    async () => {
      const branch = await ctx.request(() => ctx.api.getBranch(branchRef(ctx)));
      return (planned.protected === undefined || branch.protected === planned.protected) && sameExpiry(branch.expires_at, planned.expiresAt);
    },
  );
  const operationIds = await waitFor(ctx, change.id, result?.operations ?? []);
  const details: HandlerDetails = { operationIds };
  if (planned.expiresAt !== undefined) details.expiresAt = planned.expiresAt;
  return details;
}

/** `PATCH /projects/{p}/endpoints/{e}` with the planned values of the changed settings, then waits. */
export async function applyComputeUpdate(ctx: ExecutionContext, change: Change, op: ComputeOp): Promise<HandlerDetails> {
  const endpoint = toWire(COMPUTE_SETTINGS, fromPlan(COMPUTE_SETTINGS, change.after, change.fields));
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
