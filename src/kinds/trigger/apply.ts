import type { ApiTriggerInput, CreateTriggerParams } from "../../api/platform-api.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import { TRIGGER_FIELDS, triggerToWire } from "./fields.js";

const [FUNCTION] = TRIGGER_FIELDS;

/** `POST …/triggers` with the whole planned trigger. */
export async function applyTriggerCreate(ctx: ExecutionContext, op: OpOf<"trigger-create">, planned: PlannedOf<"trigger-create">): Promise<HandlerDetails> {
  // The function is named through its descriptor too, where the request's type can see it.
  const body: CreateTriggerParams["trigger"] = { type: planned.type, name: op.name, [FUNCTION.wireKey]: planned[FUNCTION.modelKey], ...triggerToWire(planned) };
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
export async function applyTriggerUpdate(ctx: ExecutionContext, op: OpOf<"trigger-update">, planned: PlannedOf<"trigger-update">): Promise<HandlerDetails> {
  const body: ApiTriggerInput = { type: planned.type, ...triggerToWire(planned, [...op.fields, "enabled"]) };
  await mutateWithReconcile(
    ctx,
    () => ctx.api.updateTrigger({ ...branchRef(ctx), triggerId: op.id, trigger: body }),
    // A PATCH sets absolute values: resending it is safe.
    async () => false,
  );
  return { triggerId: op.id };
}

/** `DELETE …/triggers/{id}`; 404 counts as success. */
export async function applyTriggerDelete(ctx: ExecutionContext, op: OpOf<"trigger-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteTrigger({ ...branchRef(ctx), triggerId: op.id }),
    async () => !(await ctx.request(() => ctx.api.listTriggers(branchRef(ctx)))).some((x) => x.trigger_id === op.id && !x.inherited),
  );
  return { triggerId: op.id };
}
