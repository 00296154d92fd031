/** The auth kind's handler: `create:auth` turns the branch's auth integration on. */
import type { PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";

/** `POST …/auth` `{auth_provider: "better_auth", database_name}` with the planned database; a 409 is read back by the client. */
export async function applyAuthCreate(ctx: ExecutionContext, planned: PlannedOf<"auth-create">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createAuth({ ...branchRef(ctx), authProvider: "better_auth", databaseName: planned.databaseName }),
    async () => (await ctx.request(() => ctx.api.getAuth(branchRef(ctx)))) !== null,
  );
  return {};
}
