/** The read replicas' handlers: create, resize and delete read-only endpoints of the branch. */
import type { ApiEndpoint } from "../../api/platform-api.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError } from "../../errors/platform-error.js";
import type { Change } from "../../model/plan.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { endpointSettingsOf } from "../compute/wire.js";

function listEndpoints(ctx: ExecutionContext): Promise<ApiEndpoint[]> {
  return ctx.request(() => ctx.api.listEndpoints(branchRef(ctx)));
}

/** `POST /projects/{p}/endpoints` a read-only endpoint named `op.name` with the planned settings, then waits for it to start. */
export async function applyReadReplicaCreate(ctx: ExecutionContext, change: Change, op: OpOf<"read-replica-create">, planned: PlannedOf<"read-replica-create">): Promise<HandlerDetails> {
  const endpoint = { type: "read_only" as const, name: op.name, ...endpointSettingsOf(planned) };
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.createEndpoint({ ...branchRef(ctx), endpoint }),
    async () => (await listEndpoints(ctx)).some((e) => e.type === "read_only" && e.name === op.name),
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/** `PATCH /projects/{p}/endpoints/{e}` with the changed settings, then waits. */
export async function applyReadReplicaUpdate(ctx: ExecutionContext, change: Change, op: OpOf<"read-replica-update">, planned: PlannedOf<"read-replica-update">): Promise<HandlerDetails> {
  const endpoint = endpointSettingsOf(planned);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateEndpoint({ projectId: ctx.projectId, endpointId: op.endpointId, endpoint }),
    async () => {
      const found: Readonly<Record<string, unknown>> | undefined = (await listEndpoints(ctx)).find((e) => e.id === op.endpointId);
      return found === undefined ? undefined : Object.entries(endpoint).every(([k, v]) => found[k] === v);
    },
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/**
 * `DELETE /projects/{p}/endpoints/{e}`, then waits. Right before it, the endpoint is read again:
 * gone counts as deleted; one that is no longer the read-only endpoint of that name (renamed, or
 * an id now naming another endpoint) fails with `PLATFORM_GUARD_CHANGED` and nothing is deleted.
 */
export async function applyReadReplicaDelete(ctx: ExecutionContext, change: Change, op: OpOf<"read-replica-delete">): Promise<HandlerDetails> {
  const found = (await listEndpoints(ctx)).find((e) => e.id === op.endpointId);
  if (found === undefined) return {};
  if (found.type !== "read_only" || found.name !== op.name) {
    throw new PlatformError(
      ErrorCode.GUARD_CHANGED,
      `${change.address}: endpoint ${op.endpointId} is no longer the read replica ${op.name} it was when planned; nothing was deleted. Plan again`,
      { details: { address: change.address, guard: "identity" } },
    );
  }
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteEndpoint({ projectId: ctx.projectId, endpointId: op.endpointId }),
    async () => !(await listEndpoints(ctx)).some((e) => e.id === op.endpointId),
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}
