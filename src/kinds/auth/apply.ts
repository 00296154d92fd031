/** The auth kind's handler: `create:auth` turns the branch's auth integration on. */
import { fromPlan } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import { AUTH_FIELDS } from "./fields.js";

/** `POST …/auth` `{auth_provider: "better_auth", database_name}` with the planned database; a 409 is read back by the client. */
export async function applyAuthCreate(ctx: ExecutionContext, change: Change): Promise<HandlerDetails> {
  const { databaseName } = fromPlan(AUTH_FIELDS, change.after);
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createAuth({ ...branchRef(ctx), authProvider: "better_auth", ...(databaseName === undefined ? {} : { databaseName }) }),
    async () => (await ctx.request(() => ctx.api.getAuth(branchRef(ctx)))) !== null,
  );
  return {};
}
