import type { ApiDeployment, ApiFunction } from "../../api/platform-api.js";
import type { OpOf, PlannedOf } from "../../model/planned-change.js";
import type { Change } from "../../model/plan.js";
import type { KindResult } from "../../apply/kind-result.js";
import { ErrorCode } from "../../errors/codes.js";
import { MAX_ENVIRONMENT_BYTES, environmentBytes } from "../../rules/environment.js";
import { PlatformError } from "../../errors/platform-error.js";
import { type ExecutionContext, type HandlerDetails, absentOn404, branchRef, desiredFunction, mutateWithReconcile } from "../../apply/execution-context.js";

type PlannedDeployOp = OpOf<"function-deploy">;
/** A deploy op whose markers are known (derived now when the plan deferred them), the main one first. */
type DeployOp = PlannedDeployOp & { markers: [string, ...string[]] };

/**
 * The env a deployment sends: the full declared env, the new markers, older markers as `""`. When
 * that would pass the platform's limit (older markers of many more variables to delete), the
 * per-variable markers are left out: they only name which values changed, and the next plan then
 * says "may have changed" instead.
 */
function deploymentEnv(ctx: ExecutionContext, op: DeployOp): Record<string, string> {
  const fn = desiredFunction(ctx, op.slug);
  const build = (markers: readonly string[]): Record<string, string> => {
    const env: Record<string, string> = { ...(fn?.env ?? {}) };
    for (const stale of op.staleMarkers) env[stale] = "";
    for (const marker of markers) env[marker] = "1";
    return env;
  };
  const full = build(op.markers);
  return environmentBytes(full) <= MAX_ENVIRONMENT_BYTES ? full : build(op.markers.slice(0, 1));
}

/** The planned markers, or those derived now; the main marker comes first. */
async function markersOf(ctx: ExecutionContext, op: PlannedDeployOp): Promise<[string, ...string[]]> {
  const [main, ...rest] = op.markers ?? (await ctx.functionMarkers(op.slug));
  if (main === undefined) throw new PlatformError(ErrorCode.BUNDLE_FAILED, `function ${op.slug} has no deployment fingerprint; bundle it before applying`, { details: { slug: op.slug } });
  return [main, ...rest];
}

async function getFunction(ctx: ExecutionContext, slug: string): Promise<ApiFunction | undefined> {
  try {
    return await ctx.request(() => ctx.api.getFunction({ ...branchRef(ctx), slug }));
  } catch (err) {
    return absentOn404<ApiFunction>(err);
  }
}

/**
 * Posts the deployment; after an unknown outcome, a current deployment carrying our marker means it
 * landed. The archive's bytes are read (and checked against the plan) only now, and held until
 * the post and any reconciling resend settle.
 */
async function postDeployment(ctx: ExecutionContext, op: DeployOp, runtime: string): Promise<ApiDeployment> {
  const params = { ...branchRef(ctx), slug: op.slug, runtime, environment: deploymentEnv(ctx, op) };
  let landed: ApiDeployment | undefined;
  const post = (zip?: Uint8Array): Promise<ApiDeployment | undefined> => mutateWithReconcile(
    ctx,
    () => ctx.api.createDeployment(zip === undefined ? params : { ...params, zip }),
    async () => {
      const current = (await getFunction(ctx, op.slug))?.current_deployment;
      if (current === undefined) return false;
      if (current.environment === undefined) return undefined;
      if (!current.environment.includes(op.markers[0])) return false;
      landed = current;
      return true;
    },
  );
  const created = op.withZip ? await ctx.withArchive(op.slug, post) : await post();
  const deployment = created ?? landed;
  if (deployment === undefined) throw new PlatformError(ErrorCode.API_ERROR, `deployment of function ${op.slug} landed but could not be read back`, { details: { slug: op.slug } });
  return deployment;
}

/** Sends the display-name PATCH (the function exists: it may still be building); returns the invocation URL. */
async function rename(ctx: ExecutionContext, slug: string, name: string): Promise<string | undefined> {
  const updated = await mutateWithReconcile(
    ctx,
    () => ctx.api.updateFunction({ ...branchRef(ctx), slug, name }),
    async () => (await getFunction(ctx, slug))?.name === name,
  );
  return updated?.invocation_url;
}

/**
 * Deploys (with or without the archive) and waits for the build through the branch's build
 * watcher; the display name is set as soon as the function exists, while it builds.
 */
export async function applyFunctionDeploy(ctx: ExecutionContext, change: Change, op: PlannedDeployOp, planned: PlannedOf<"function-deploy">): Promise<HandlerDetails> {
  const changeId = change.id;
  const { name } = planned;
  const details: HandlerDetails = { zipUploaded: op.deploy && op.withZip };
  if (!op.deploy) {
    const url = op.rename ? await rename(ctx, op.slug, name) : undefined;
    if (url !== undefined) details.invocationUrl = url;
    return details;
  }
  const markers = await markersOf(ctx, op);
  const deployment = await postDeployment(ctx, { ...op, markers }, planned.runtime);
  details.deploymentId = deployment.id;
  ctx.emit({ type: "wait", changeId, waitingFor: "deployment", id: String(deployment.id), status: deployment.status });
  const build = ctx.builds.wait(op.slug, deployment.id, (status) => ctx.emit({ type: "wait", changeId, waitingFor: "deployment", id: String(deployment.id), status }));
  const renamed = op.rename ? rename(ctx, op.slug, name) : Promise.resolve(undefined);
  const [built, url] = await Promise.allSettled([build, renamed]).then(([b, r]) => {
    if (b.status === "rejected") throw b.reason;
    if (r.status === "rejected") throw r.reason;
    return [b.value, r.value] as const;
  });
  details.invocationUrl = url ?? built.invocation_url;
  return details;
}

/** `DELETE …/functions/{s}`; 404 counts as success. */
export async function applyFunctionDelete(ctx: ExecutionContext, op: OpOf<"function-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteFunction({ ...branchRef(ctx), slug: op.slug }),
    async () => (await getFunction(ctx, op.slug)) === undefined,
  );
  return {};
}

/** What a saved plan's digest of a function holds that no view shows (its env values, as hardened tags). */
export const functionResult: KindResult = {
  hiddenDifference: "env: a value changed since the plan was made (values are never shown)",
};
