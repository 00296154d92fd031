import type { CreateDataApiParams } from "../../api/platform-api.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { toWireSettings } from "../../model/kinds/data-api.js";
import { sameValue } from "../../model/same-value.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../execution-context.js";

type Op<T extends ChangeOp["type"]> = Extract<ChangeOp, { type: T }>;

/** `POST …/data-api/{db}` with the provider, its wiring and the declared settings. */
export async function applyDataApiCreate(ctx: ExecutionContext, op: Op<"data-api-create">): Promise<HandlerDetails> {
  const want = ctx.desired.dataApi;
  const params: CreateDataApiParams = { ...branchRef(ctx), databaseName: op.database };
  if (want.state === "enabled") {
    params.auth_provider = want.authProvider === "builtin" ? "neon_auth" : "external";
    if (want.jwksUrl !== undefined) params.jwks_url = want.jwksUrl;
    if (want.providerName !== undefined) params.provider_name = want.providerName;
    if (want.jwtAudience !== undefined) params.jwt_audience = want.jwtAudience;
    const settings = toWireSettings(want.settings);
    if (Object.keys(settings).length > 0) params.settings = settings;
  }
  await mutateWithReconcile(
    ctx,
    () => ctx.api.createDataApi(params),
    async () => (await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }))) !== null,
  );
  return {};
}

/** `PATCH …/data-api/{db}` `{settings}` with the declared keys that differ. */
export async function applyDataApiUpdate(ctx: ExecutionContext, op: Op<"data-api-update">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.updateDataApi({ ...branchRef(ctx), databaseName: op.database, settings: op.settings }),
    async () => {
      const current = await ctx.request(() => ctx.api.getDataApi({ ...branchRef(ctx), databaseName: op.database }));
      if (current === null || current.settings === null) return undefined;
      const settings = current.settings;
      return Object.entries(op.settings).every(([k, v]) => sameValue(settings[k], v));
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
