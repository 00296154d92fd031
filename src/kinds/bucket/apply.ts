import type { CreateBucketParams } from "../../api/platform-api.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, plannedRecord } from "../../apply/execution-context.js";
import { plannedToWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { BUCKET_FIELDS } from "./fields.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/** `POST …/buckets` `{name, access_level}`, the fields as planned. */
export async function applyBucketCreate(ctx: ExecutionContext, change: Change, op: Op<"bucket-create">): Promise<HandlerDetails> {
  const fields = plannedToWire(BUCKET_FIELDS, plannedRecord(change)) as Omit<CreateBucketParams, "projectId" | "branchId" | "name">;
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createBucket({ ...branchRef(ctx), name: op.name, ...fields }),
    async () => (await ctx.request(() => ctx.api.listBuckets(branchRef(ctx)))).some((b) => b.name === op.name),
  );
  return {};
}

/** `DELETE …/buckets/{n}`; 404 counts as success. */
export async function applyBucketDelete(ctx: ExecutionContext, op: Op<"bucket-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteBucket({ ...branchRef(ctx), bucket: op.name }),
    async () => !(await ctx.request(() => ctx.api.listBuckets(branchRef(ctx)))).some((b) => b.name === op.name),
  );
  return {};
}
