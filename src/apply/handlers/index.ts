import { ErrorCode } from "../../errors/codes.js";
import { PlatformError } from "../../errors/platform-error.js";
import type { OpType, OperationChange, PlannedChange } from "../../model/planned-change.js";
import type { ChangeHandlers, ExecutionContext, HandlerDetails } from "../execution-context.js";
import { recheckDeleteGuard } from "../delete-guards.js";

/**
 * Carries out one planned change against the platform with the handler its kind registers for
 * the change's operation, and returns its `AppliedChange.details`; a delete first re-reads its
 * guard (`delete-guards.ts`).
 */
export async function applyChange(ctx: ExecutionContext, planned: PlannedChange): Promise<HandlerDetails> {
  await recheckDeleteGuard(ctx, planned);
  return dispatch(ctx, planned.op.type, planned);
}

function dispatch<T extends OpType>(ctx: ExecutionContext, type: T, { change, op, planned }: OperationChange<T>): Promise<HandlerDetails> {
  const handlers: ChangeHandlers = ctx.handlers;
  const handler = handlers[type];
  if (handler === undefined) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `${change.address}: no kind handles the operation ${type}; nothing was changed`, {
      details: { option: "plan", value: change.id },
    });
  }
  return handler(ctx, change, op, planned);
}
