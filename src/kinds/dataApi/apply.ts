import type { CreateDataApiParams } from "../../api/platform-api.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { toWire } from "../../model/kinds/field.js";
import type { Change } from "../../model/plan.js";
import { sameValue } from "../../model/same-value.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import { DATA_API_SETTINGS } from "./fields.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/**
 * The settings a change plans, in wire names: its `after.settings` (policy keys), only the
 * changed `fields` for an update. The request carries exactly what the plan showed.
 */
function plannedWireSettings(change: Change): Record<string, unknown> {
  const after = change.after as { settings?: Record<string, unknown> } | null;
  const settings = after?.settings ?? {};
  if (change.action !== "update") return toWire(DATA_API_SETTINGS, settings);
  const changed = new Set(change.fields.map((f) => f.slice("settings.".length)));
  return toWire(DATA_API_SETTINGS, Object.fromEntries(Object.entries(settings).filter(([key]) => changed.has(key))));
}

/**
 * `POST …/data-api/{db}` with the planned settings, and the provider and its wiring from the
 * policy (the platform never reports the wiring back, so plans do not show it).
 */
export async function applyDataApiCreate(ctx: ExecutionContext, change: Change, op: Op<"data-api-create">): Promise<HandlerDetails> {
  const want = ctx.desired.dataApi;
  const params: CreateDataApiParams = { ...branchRef(ctx), databaseName: op.database };
  if (want.state === "enabled") {
    params.auth_provider = want.authProvider === "builtin" ? "neon_auth" : "external";
    if (want.jwksUrl !== undefined) params.jwks_url = want.jwksUrl;
    if (want.providerName !== undefined) params.provider_name = want.providerName;
    if (want.jwtAudience !== undefined) params.jwt_audience = want.jwtAudience;
  }
  const settings = plannedWireSettings(change);
  if (Object.keys(settings).length > 0) params.settings = settings;
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createDataApi(params),
    async () => (await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }))) !== null,
  );
  return {};
}

/** `PATCH …/data-api/{db}` `{settings}` with the planned values of the changed settings. */
export async function applyDataApiUpdate(ctx: ExecutionContext, change: Change, op: Op<"data-api-update">): Promise<HandlerDetails> {
  const planned = plannedWireSettings(change);
  await mutateWithReconcile(
    ctx,
    () => ctx.api.updateDataApi({ ...branchRef(ctx), databaseName: op.database, settings: planned }),
    async () => {
      const current = await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }));
      if (current === null || current.settings === null) return undefined;
      const settings = current.settings;
      return Object.entries(planned).every(([k, v]) => sameValue(settings[k], v));
    },
  );
  return {};
}

/** `DELETE …/data-api/{db}`; 404 counts as success. */
export async function applyDataApiDelete(ctx: ExecutionContext, op: Op<"data-api-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteDataApi({ ...branchRef(ctx), databaseName: op.database }),
    async () => (await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }))) === null,
  );
  return {};
}
