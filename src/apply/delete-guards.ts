/**
 * The last check before a delete: what made a delete safe at plan time is read again right
 * before its request, because the branch can change between the plan and the apply (an upload,
 * a Data API switched on). A bucket planned as empty must still be empty; a database must still
 * be unused by the auth integration and by any Data API. When the answer changed, the change
 * fails with `PLATFORM_GUARD_CHANGED` and nothing is deleted. Every delete passes here: the
 * handler dispatch calls {@link recheckDeleteGuard} before it sends anything.
 */
import { ErrorCode } from "../errors/codes.js";
import { PlatformError, isPlatformError } from "../errors/platform-error.js";
import { bucketHasObjects, databaseServesDataApi } from "../api/guard-reads.js";
import { AUTH_FIELDS } from "../kinds/auth/fields.js";
import { fromWire } from "../model/kinds/field.js";
import type { PlannedChange } from "../model/planned-change.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import { type ExecutionContext, branchRef } from "./execution-context.js";

/** Reads the guard of a delete again; throws `PLATFORM_GUARD_CHANGED` when it no longer holds. */
export async function recheckDeleteGuard(ctx: ExecutionContext, planned: PlannedChange): Promise<void> {
  const { op, change } = planned;
  if (op.type === "bucket-delete" && change.class !== "destructive") {
    const ref = { ...branchRef(ctx), bucket: op.name };
    if (await ctx.request(() => bucketHasObjects(ctx.api, ref))) {
      throw guardChanged(change.address, "objects", `bucket ${quote(op.name)} was empty when planned and now holds objects; nothing was deleted. Plan again (deleting it with its objects needs allowDataLoss / --allow-data-loss)`);
    }
  }
  if (op.type === "database-delete") {
    const users = await databaseUsersNow(ctx, op.name);
    if (users.length > 0) {
      throw guardChanged(change.address, "in-use", `database ${quote(op.name)} is now used by ${users.join(" and ")}; nothing was deleted. Declare it under databases, or plan again`);
    }
  }
}

/** Who uses `database` on the branch right now: the auth integration, its Data API. */
async function databaseUsersNow(ctx: ExecutionContext, database: string): Promise<string[]> {
  const [auth, dataApi] = await Promise.all([
    ctx.request(() => ctx.api.getAuth(branchRef(ctx))).catch((err: unknown) => {
      if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) return null;
      throw err;
    }),
    ctx.request(() => databaseServesDataApi(ctx.api, { ...branchRef(ctx), databaseName: database })),
  ]);
  // An integration whose database the platform does not report counts as using this one.
  const authDatabase = auth === null ? undefined : fromWire(AUTH_FIELDS, auth).databaseName;
  return [
    ...(auth !== null && (authDatabase === undefined || authDatabase === database) ? ["the auth integration"] : []),
    ...(dataApi ? ["a Data API"] : []),
  ];
}

function guardChanged(address: string, guard: "objects" | "in-use", message: string): PlatformError {
  return new PlatformError(ErrorCode.GUARD_CHANGED, `${address}: ${message}`, { details: { address, guard } });
}

function quote(name: string): string {
  return escapeUnsafeText(JSON.stringify(name));
}
