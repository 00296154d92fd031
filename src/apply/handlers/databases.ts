import type { ChangeOp } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, absentOn404, branchRef, mutateWithReconcile } from "../execution-context.js";
import { waitFor } from "./control-plane.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

async function ownerOf(ctx: ExecutionContext, name: string): Promise<string | undefined> {
  return (await ctx.request(() => ctx.api.listDatabases(branchRef(ctx)))).find((d) => d.name === name)?.owner_name;
}

/** `POST …/databases` `{name, owner_name}` with the planned owner, then waits for its operations. */
export async function applyDatabaseCreate(ctx: ExecutionContext, changeId: string, op: Op<"database-create">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.createDatabase({ ...branchRef(ctx), name: op.name, ownerName: op.owner }),
    async () => (await ownerOf(ctx, op.name)) !== undefined,
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}

/** `PATCH …/databases/{db}` `{owner_name}` with the planned owner, then waits for its operations. */
export async function applyDatabaseUpdate(ctx: ExecutionContext, changeId: string, op: Op<"database-update">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateDatabase({ ...branchRef(ctx), database: op.name, ownerName: op.owner }),
    async () => (await ownerOf(ctx, op.name)) === op.owner,
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}

/** `DELETE …/databases/{db}` (its data with it; 404 counts as success), then waits for its operations. */
export async function applyDatabaseDelete(ctx: ExecutionContext, changeId: string, op: Op<"database-delete">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteDatabase({ ...branchRef(ctx), database: op.name }).catch(absentOn404<{ operations: [] }>),
    async () => (await ownerOf(ctx, op.name)) === undefined,
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}
