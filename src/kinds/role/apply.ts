import { toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, absentOn404, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import { ROLE_FIELDS } from "./fields.js";

async function roleExists(ctx: ExecutionContext, name: string): Promise<boolean> {
  return (await ctx.request(() => ctx.api.listRoles(branchRef(ctx)))).some((r) => r.name === name);
}

/**
 * `POST …/roles` `{name, …}` with the planned fields (`no_login` for `login: false`), then waits
 * for its operations. The platform answers with the new password; the client drops it unread,
 * so it never reaches a result or a log.
 */
export async function applyRoleCreate(ctx: ExecutionContext, change: Change, op: OpOf<"role-create">, planned: PlannedOf<"role-create">): Promise<HandlerDetails> {
  const fields = toWire(ROLE_FIELDS, planned);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.createRole({ ...branchRef(ctx), name: op.name, fields }),
    () => roleExists(ctx, op.name),
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/** `DELETE …/roles/{role}` (404 counts as success), then waits for its operations. */
export async function applyRoleDelete(ctx: ExecutionContext, changeId: string, op: OpOf<"role-delete">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteRole({ ...branchRef(ctx), role: op.name }).catch(absentOn404<{ operations: [] }>),
    async () => !(await roleExists(ctx, op.name)),
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}
