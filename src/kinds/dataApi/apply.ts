import type { CreateDataApiParams } from "../../api/platform-api.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import { toWire } from "../../model/kinds/field.js";
import { sameValue } from "../../model/same-value.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import { DATA_API_SETTINGS } from "./fields.js";

/**
 * `POST …/data-api/{db}` with the planned settings in wire names, and the provider and its wiring
 * from the policy (the platform never reports the wiring back, so plans do not show it).
 */
export async function applyDataApiCreate(ctx: ExecutionContext, op: OpOf<"data-api-create">, planned: PlannedOf<"data-api-create">): Promise<HandlerDetails> {
  const want = ctx.desired.dataApi;
  const params: CreateDataApiParams = { ...branchRef(ctx), databaseName: op.database };
  if (want.state === "enabled") {
    params.auth_provider = want.authProvider === "builtin" ? "neon_auth" : "external";
    if (want.jwksUrl !== undefined) params.jwks_url = want.jwksUrl;
    if (want.providerName !== undefined) params.provider_name = want.providerName;
    if (want.jwtAudience !== undefined) params.jwt_audience = want.jwtAudience;
  }
  const settings = toWire(DATA_API_SETTINGS, planned);
  if (Object.keys(settings).length > 0) params.settings = settings;
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createDataApi(params),
    async () => (await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }))) !== null,
  );
  return {};
}

/** `PATCH …/data-api/{db}` `{settings}` with the planned values of the changed settings, in wire names. */
export async function applyDataApiUpdate(ctx: ExecutionContext, op: OpOf<"data-api-update">, planned: PlannedOf<"data-api-update">): Promise<HandlerDetails> {
  const patch = toWire(DATA_API_SETTINGS, planned);
  await mutateWithReconcile(
    ctx,
    () => ctx.api.updateDataApi({ ...branchRef(ctx), databaseName: op.database, settings: patch }),
    async () => {
      const current = await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }));
      if (current === null || current.settings === null) return undefined;
      const settings = current.settings;
      return Object.entries(patch).every(([k, v]) => sameValue(settings[k], v));
    },
  );
  return {};
}

/** `DELETE …/data-api/{db}`; 404 counts as success. */
export async function applyDataApiDelete(ctx: ExecutionContext, op: OpOf<"data-api-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteDataApi({ ...branchRef(ctx), databaseName: op.database }),
    async () => (await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }))) === null,
  );
  return {};
}
