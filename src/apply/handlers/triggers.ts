import type { ApiTriggerInput } from "../../api/platform-api.js";
import type { ResolvedTrigger } from "../../model/desired-state.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError } from "../../errors/platform-error.js";
import { type ExecutionContext, type HandlerDetails, branchRef, desiredTrigger, mutateWithReconcile } from "../execution-context.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

function declared(ctx: ExecutionContext, name: string): ResolvedTrigger {
  const trigger = desiredTrigger(ctx, name);
  if (trigger === undefined) throw new PlatformError(ErrorCode.INVALID_OPTIONS, `trigger ${name} is not declared in the policy`, { details: { option: "config", value: name } });
  return trigger;
}

function typePart(t: ResolvedTrigger): Pick<ApiTriggerInput, "schedule" | "storage_object_created"> {
  if (t.type === "schedule") return { schedule: { cron: t.cron } };
  return { storage_object_created: { bucket_name: t.bucket, ...(t.prefix === undefined ? {} : { prefix: t.prefix }) } };
}

/** `POST …/triggers` with the whole declared trigger. */
export async function applyTriggerCreate(ctx: ExecutionContext, op: Op<"trigger-create">): Promise<HandlerDetails> {
  const t = declared(ctx, op.name);
  const body = { type: t.type, function_slug: t.function, name: t.name, function_path: t.functionPath, enabled: t.enabled, ...typePart(t) };
  let triggerId: string | undefined;
  const created = await mutateWithReconcile(
    ctx,
    () => ctx.api.createTrigger({ ...branchRef(ctx), trigger: body }),
    async () => {
      const found = (await ctx.request(() => ctx.api.listTriggers(branchRef(ctx)))).find((x) => x.name === t.name && !x.inherited);
      triggerId = found?.trigger_id;
      return found !== undefined;
    },
  );
  return { triggerId: created?.trigger_id ?? triggerId ?? null };
}

/**
 * `PATCH …/triggers/{id}`: `type`, the changed fields and `enabled` (a PATCHed inherited trigger
 * becomes a branch-local copy, disabled unless the request enables it).
 */
export async function applyTriggerUpdate(ctx: ExecutionContext, op: Op<"trigger-update">): Promise<HandlerDetails> {
  const t = declared(ctx, op.name);
  const body: ApiTriggerInput = { type: t.type };
  if (op.fields.includes("function")) body.function_slug = t.function;
  if (op.fields.includes("functionPath")) body.function_path = t.functionPath;
  body.enabled = t.enabled;
  if (op.fields.some((f) => f === "cron" || f === "bucket" || f === "prefix")) Object.assign(body, typePart(t));
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
