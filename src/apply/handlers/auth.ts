import type { ChangeOp } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../execution-context.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/** `POST …/auth` `{auth_provider: "better_auth", database_name}`; a 409 is read back by the client. */
export async function applyAuthCreate(ctx: ExecutionContext, op: Op<"auth-create">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createAuth({ ...branchRef(ctx), authProvider: "better_auth", databaseName: op.database }),
    async () => (await ctx.request(() => ctx.api.getAuth(branchRef(ctx)))) !== null,
  );
  return {};
}
