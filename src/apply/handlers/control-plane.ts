import type { ApiOperation } from "../../api/platform-api.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../execution-context.js";

type BranchOp = Extract<ChangeOp, { type: "branch-update" }>;
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

/** `PATCH …/branches/{b}` `{protected?, expires_at?}`, then waits for its operations. */
export async function applyBranchUpdate(ctx: ExecutionContext, changeId: string, op: BranchOp): Promise<HandlerDetails> {
  const body: { protected?: boolean; expires_at?: string | null } = {};
  if (op.protected !== undefined) body.protected = op.protected;
  if (op.expiresAt !== undefined) body.expires_at = op.expiresAt;
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateBranch({ ...branchRef(ctx), branch: body }),
    async () => {
      const branch = await ctx.request(() => ctx.api.getBranch(branchRef(ctx)));
      return (op.protected === undefined || branch.protected === op.protected) && sameExpiry(branch.expires_at, op.expiresAt);
    },
  );
  const operationIds = await waitFor(ctx, changeId, result?.operations ?? []);
  const details: HandlerDetails = { operationIds };
  if (op.expiresAt !== undefined) details.expiresAt = op.expiresAt;
  return details;
}

/** `PATCH /projects/{p}/endpoints/{e}` with the declared fields, then waits. */
export async function applyComputeUpdate(ctx: ExecutionContext, changeId: string, op: ComputeOp): Promise<HandlerDetails> {
  const endpoint: { autoscaling_limit_min_cu?: number; autoscaling_limit_max_cu?: number; suspend_timeout_seconds?: number } = {};
  if (op.minCu !== undefined) endpoint.autoscaling_limit_min_cu = op.minCu;
  if (op.maxCu !== undefined) endpoint.autoscaling_limit_max_cu = op.maxCu;
  if (op.suspendTimeoutSeconds !== undefined) endpoint.suspend_timeout_seconds = op.suspendTimeoutSeconds;
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateEndpoint({ projectId: ctx.projectId, endpointId: op.endpointId, endpoint }),
    async () => {
      const endpoints = await ctx.request(() => ctx.api.listEndpoints(branchRef(ctx)));
      const found = endpoints.find((e) => e.id === op.endpointId);
      if (found === undefined) return undefined;
      return Object.entries(endpoint).every(([k, v]) => found[k as keyof typeof endpoint] === v);
    },
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}
