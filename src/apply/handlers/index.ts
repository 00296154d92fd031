import type { PlannedChange } from "../../model/planned-change.js";
import type { ExecutionContext, HandlerDetails } from "../execution-context.js";
import { recheckDeleteGuard } from "../delete-guards.js";
import { applyBranchUpdate } from "./control-plane.js";
import { applyComputeUpdate } from "../../kinds/compute/apply.js";
import { applyDomainCreate, applyDomainDelete, applyDomainReplace } from "../../kinds/domain/apply.js";
import { applyFunctionDelete, applyFunctionDeploy } from "./functions.js";
import { applyAuthCreate } from "./auth.js";
import { applyBucketCreate, applyBucketDelete } from "../../kinds/bucket/apply.js";
import { applyDatabaseCreate, applyDatabaseDelete, applyDatabaseUpdate } from "./databases.js";
import { applyRoleCreate, applyRoleDelete } from "./roles.js";
import { applyDataApiCreate, applyDataApiDelete, applyDataApiUpdate } from "./data-api.js";
import { applyTriggerCreate, applyTriggerDelete, applyTriggerUpdate } from "./triggers.js";

/**
 * Carries out one planned change against the platform and returns its `AppliedChange.details`;
 * a delete first re-reads its guard (`delete-guards.ts`).
 */
export async function applyChange(ctx: ExecutionContext, planned: PlannedChange): Promise<HandlerDetails> {
  await recheckDeleteGuard(ctx, planned);
  return dispatch(ctx, planned);
}

function dispatch(ctx: ExecutionContext, planned: PlannedChange): Promise<HandlerDetails> {
  const { op } = planned;
  const id = planned.change.id;
  switch (op.type) {
    case "branch-update": return applyBranchUpdate(ctx, planned.change);
    case "compute-update": return applyComputeUpdate(ctx, planned.change, op);
    case "auth-create": return applyAuthCreate(ctx, planned.change);
    case "data-api-create": return applyDataApiCreate(ctx, planned.change, op);
    case "data-api-update": return applyDataApiUpdate(ctx, planned.change, op);
    case "data-api-delete": return applyDataApiDelete(ctx, op);
    case "bucket-create": return applyBucketCreate(ctx, planned.change, op);
    case "bucket-delete": return applyBucketDelete(ctx, op);
    case "role-create": return applyRoleCreate(ctx, planned.change, op);
    case "role-delete": return applyRoleDelete(ctx, id, op);
    case "database-create": return applyDatabaseCreate(ctx, planned.change, op);
    case "database-update": return applyDatabaseUpdate(ctx, planned.change, op);
    case "database-delete": return applyDatabaseDelete(ctx, id, op);
    case "function-deploy": return applyFunctionDeploy(ctx, planned.change, op);
    case "function-delete": return applyFunctionDelete(ctx, op);
    case "trigger-create": return applyTriggerCreate(ctx, planned.change, op);
    case "trigger-update": return applyTriggerUpdate(ctx, planned.change, op);
    case "trigger-delete": return applyTriggerDelete(ctx, op);
    case "domain-create": return applyDomainCreate(ctx, planned.change, op);
    case "domain-replace": return applyDomainReplace(ctx, planned.change, op);
    case "domain-delete": return applyDomainDelete(ctx, op);
  }
}
