/** The branch kind's handler (`update:branch` patches the branch's protection and expiry) and its settings of a created branch. */
import { toWire } from "../../model/kinds/field.js";
import type { PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, waitFor } from "../../apply/execution-context.js";
import type { KindCreate } from "../../apply/kind-create.js";
import type { AppliedChangeDetails } from "../../model/plan.js";
import type { Json } from "../../model/json.js";
import { BRANCH_SETTINGS, toWholeSecondIso } from "./fields.js";

function sameExpiry(a: string | undefined, b: string | null | undefined): boolean {
  if (b === undefined) return true;
  if (b === null || a === undefined) return (a ?? null) === b;
  return Math.abs(Date.parse(a) - Date.parse(b)) < 1000;
}

/** `PATCH …/branches/{b}` with the planned values of the changed settings (`protected`, `expires_at`), then waits. */
export async function applyBranchUpdate(ctx: ExecutionContext, changeId: string, planned: PlannedOf<"branch-update">): Promise<HandlerDetails> {
  const result = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateBranch({ ...branchRef(ctx), branch: toWire(BRANCH_SETTINGS, planned) }),
    async () => {
      const branch = await ctx.request(() => ctx.api.getBranch(branchRef(ctx)));
      return (planned.protected === undefined || branch.protected === planned.protected) && sameExpiry(branch.expires_at, planned.expiresAt);
    },
  );
  const operationIds = await waitFor(ctx, changeId, result?.operations ?? []);
  const details: HandlerDetails = { operationIds };
  if (planned.expiresAt !== undefined) details.expiresAt = planned.expiresAt;
  return details;
}

/** A created branch's protection and the expiry its ttl gives from the time of the request (whole seconds). */
export const branchCreate: KindCreate = {
  part: (desired, now) => {
    const want = desired.branch;
    const branch: { protected?: boolean; expires_at?: string } = {};
    const after: Record<string, Json> = {};
    const details: AppliedChangeDetails = {};
    if (want.protected !== undefined) {
      branch.protected = want.protected;
      after.protected = want.protected;
    }
    if (typeof want.ttlSeconds === "number") {
      branch.expires_at = toWholeSecondIso(now.getTime() + want.ttlSeconds * 1000);
      after.expiresAt = branch.expires_at;
      details.expiresAt = branch.expires_at;
    }
    return { branch, after, details };
  },
};
