import type { ChangeOp } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../execution-context.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/** `POST …/buckets` `{name, access_level}`. */
export async function applyBucketCreate(ctx: ExecutionContext, op: Op<"bucket-create">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createBucket({ ...branchRef(ctx), name: op.name, access_level: op.access }),
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
