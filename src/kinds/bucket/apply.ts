import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import { toWire } from "../../model/kinds/field.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { BUCKET_FIELDS } from "./fields.js";

/** `POST …/buckets` `{name, access_level}`, the fields as planned. */
export async function applyBucketCreate(ctx: ExecutionContext, op: OpOf<"bucket-create">, planned: PlannedOf<"bucket-create">): Promise<HandlerDetails> {
  const fields = toWire(BUCKET_FIELDS, planned);
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createBucket({ ...branchRef(ctx), name: op.name, ...fields }),
    async () => (await ctx.request(() => ctx.api.listBuckets(branchRef(ctx)))).some((b) => b.name === op.name),
  );
  return {};
}

/** `DELETE …/buckets/{n}`; 404 counts as success. */
export async function applyBucketDelete(ctx: ExecutionContext, op: OpOf<"bucket-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteBucket({ ...branchRef(ctx), bucket: op.name }),
    async () => !(await ctx.request(() => ctx.api.listBuckets(branchRef(ctx)))).some((b) => b.name === op.name),
  );
  return {};
}
