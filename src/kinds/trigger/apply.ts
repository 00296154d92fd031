import type { ApiTriggerInput, CreateTriggerParams } from "../../api/platform-api.js";
import type { ChangeOp } from "../../model/planned-change.js";
import type { Change } from "../../model/plan.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError } from "../../errors/platform-error.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile, plannedRecord } from "../../apply/execution-context.js";
import { type TriggerType, isTriggerType, triggerToWire } from "./fields.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/** The trigger a change plans (its `after`, policy vocabulary) and its type. */
function planned(change: Change): { type: TriggerType; values: Record<string, unknown> } {
  const after = plannedRecord(change);
  if (typeof after.type === "string" && isTriggerType(after.type)) return { type: after.type, values: after };
  throw new PlatformError(ErrorCode.INVALID_OPTIONS, `${change.address}: the planned change has no trigger type`, { details: { option: "plan", value: change.id } });
}

/** `POST …/triggers` with the whole planned trigger. */
export async function applyTriggerCreate(ctx: ExecutionContext, change: Change, op: Op<"trigger-create">): Promise<HandlerDetails> {
  const { type, values } = planned(change);
  const body = { type, name: op.name, ...triggerToWire(type, values) } as CreateTriggerParams["trigger"];
  let triggerId: string | undefined;
  const created = await mutateWithReconcile(
    ctx,
    () => ctx.api.createTrigger({ ...branchRef(ctx), trigger: body }),
    async () => {
      const found = (await ctx.request(() => ctx.api.listTriggers(branchRef(ctx)))).find((x) => x.name === op.name && !x.inherited);
      triggerId = found?.trigger_id;
      return found !== undefined;
    },
  );
  return { triggerId: created?.trigger_id ?? triggerId ?? null };
}

/**
 * `PATCH …/triggers/{id}`: `type`, the changed fields and `enabled` (a PATCHed inherited trigger
 * becomes a branch-local copy, disabled unless the request enables it), all as planned.
 */
export async function applyTriggerUpdate(ctx: ExecutionContext, change: Change, op: Op<"trigger-update">): Promise<HandlerDetails> {
  const { type, values } = planned(change);
  const body = { type, ...triggerToWire(type, values, [...op.fields, "enabled"]) } as ApiTriggerInput;
  await mutateWithReconcile(
    ctx,
    () => ctx.api.updateTrigger({ ...branchRef(ctx), triggerId: op.id, trigger: body }),
    // A PATCH sets absolute values: resending it is safe.
    async () => false,
  );
  return { triggerId: op.id };
}

/** `DELETE …/triggers/{id}`; 404 counts as success. */
export async function applyTriggerDelete(ctx: ExecutionContext, op: Op<"trigger-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteTrigger({ ...branchRef(ctx), triggerId: op.id }),
    async () => !(await ctx.request(() => ctx.api.listTriggers(branchRef(ctx)))).some((x) => x.trigger_id === op.id && !x.inherited),
  );
  return { triggerId: op.id };
}
