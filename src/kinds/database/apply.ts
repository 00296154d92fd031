import { toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { sameValue } from "../../model/same-value.js";
import { type ExecutionContext, type HandlerDetails, absentOn404, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import { DATABASE_FIELDS } from "./fields.js";

async function databaseRecord(ctx: ExecutionContext, name: string): Promise<Readonly<Record<string, unknown>> | undefined> {
  return (await ctx.request(() => ctx.api.listDatabases(branchRef(ctx)))).find((d) => d.name === name);
}

/** `POST …/databases` `{name, owner_name}` with the planned fields, then waits for its operations. */
export async function applyDatabaseCreate(ctx: ExecutionContext, change: Change, op: OpOf<"database-create">, planned: PlannedOf<"database-create">): Promise<HandlerDetails> {
  const fields = toWire(DATABASE_FIELDS, planned);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.createDatabase({ ...branchRef(ctx), name: op.name, fields }),
    async () => (await databaseRecord(ctx, op.name)) !== undefined,
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/** `PATCH …/databases/{db}` with the planned values of the changed fields (`owner_name`), then waits for its operations. */
export async function applyDatabaseUpdate(ctx: ExecutionContext, change: Change, op: OpOf<"database-update">, planned: PlannedOf<"database-update">): Promise<HandlerDetails> {
  const fields = toWire(DATABASE_FIELDS, planned);
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateDatabase({ ...branchRef(ctx), database: op.name, fields }),
    async () => {
      const record = await databaseRecord(ctx, op.name);
      return record !== undefined && Object.entries(fields).every(([key, value]) => sameValue(record[key], value));
    },
  );
  return { operationIds: await waitFor(ctx, change.id, result?.operations ?? []) };
}

/** `DELETE …/databases/{db}` (its data with it; 404 counts as success), then waits for its operations. */
export async function applyDatabaseDelete(ctx: ExecutionContext, changeId: string, op: OpOf<"database-delete">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteDatabase({ ...branchRef(ctx), database: op.name }).catch(absentOn404<{ operations: [] }>),
    async () => (await databaseRecord(ctx, op.name)) === undefined,
  );
  return { operationIds: await waitFor(ctx, changeId, result?.operations ?? []) };
}
