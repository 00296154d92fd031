import type { ApiDeployment, ApiFunction } from "../../api/platform-api.js";
import type { ChangeOp } from "../../model/planned-change.js";
import { ErrorCode } from "../../errors/codes.js";
import { TimeoutError } from "../../errors/api-errors.js";
import { CancelledError } from "../../errors/engine-errors.js";
import { PlatformError, isPlatformError } from "../../errors/platform-error.js";
import { type ExecutionContext, type HandlerDetails, absentOn404, branchRef, desiredFunction, mutateWithReconcile } from "../execution-context.js";

type PlannedDeployOp = Extract<ChangeOp, { type: "function-deploy" }>;
/** A deploy op whose marker is known (derived now when the plan deferred it). */
type DeployOp = PlannedDeployOp & { marker: string };
type DeleteOp = Extract<ChangeOp, { type: "function-delete" }>;

/** The env a deployment sends: the full declared env, the new marker, older markers as `""`. */
function deploymentEnv(ctx: ExecutionContext, op: DeployOp): Record<string, string> {
  const fn = desiredFunction(ctx, op.slug);
  const env: Record<string, string> = { ...(fn?.env ?? {}) };
  for (const stale of op.staleMarkers) env[stale] = "";
  env[op.marker] = "1";
  return env;
}

function runtimeOf(ctx: ExecutionContext, slug: string): string {
  return desiredFunction(ctx, slug)?.runtime ?? "nodejs24";
}

async function getFunction(ctx: ExecutionContext, slug: string): Promise<ApiFunction | undefined> {
  try {
    return await ctx.request(() => ctx.api.getFunction({ ...branchRef(ctx), slug }));
  } catch (err) {
    return absentOn404<ApiFunction>(err);
  }
}

/** Posts the deployment; after an unknown outcome, a current deployment carrying our marker means it landed. */
async function postDeployment(ctx: ExecutionContext, op: DeployOp): Promise<ApiDeployment> {
  const zip = op.withZip ? ctx.zips.get(op.slug) : undefined;
  if (op.withZip && zip === undefined) {
    throw new PlatformError(ErrorCode.BUNDLE_FAILED, `function ${op.slug} has no archive; bundle it before applying`, { details: { slug: op.slug } });
  }
  const params = { ...branchRef(ctx), slug: op.slug, runtime: runtimeOf(ctx, op.slug), environment: deploymentEnv(ctx, op), ...(zip ? { zip } : {}) };
  let landed: ApiDeployment | undefined;
  const created = await mutateWithReconcile(
    ctx,
    () => ctx.api.createDeployment(params),
    async () => {
      const current = (await getFunction(ctx, op.slug))?.current_deployment;
      if (current === undefined) return false;
      if (current.environment === undefined) return undefined;
      if (!current.environment.includes(op.marker)) return false;
      landed = current;
      return true;
    },
  );
  const deployment = created ?? landed;
  if (deployment === undefined) throw new PlatformError(ErrorCode.API_ERROR, `deployment of function ${op.slug} landed but could not be read back`, { details: { slug: op.slug } });
  return deployment;
}

/** Polls the function until our deployment is terminal (no slot held between polls). */
async function awaitBuild(ctx: ExecutionContext, changeId: string, slug: string, id: number): Promise<ApiFunction> {
  const deadline = ctx.now() + ctx.timing.deploymentMs;
  let interval = ctx.timing.pollInitialMs;
  let lastStatus = "";
  for (;;) {
    if (ctx.signal?.aborted === true) throw new CancelledError(`waiting for deployment ${id} of function ${slug}`);
    const fn = await getFunction(ctx, slug).catch((err: unknown) => {
      if (isPlatformError(err, ErrorCode.SERVER_ERROR) || isPlatformError(err, ErrorCode.NETWORK_ERROR)) return undefined;
      throw err;
    });
    const current = fn?.current_deployment;
    if (fn !== undefined && current !== undefined) {
      if (current.id > id) {
        throw new PlatformError(ErrorCode.CONFLICT, `deployment ${id} of function ${slug} was superseded by deployment ${current.id}; run plan again`, {
          details: { slug, deploymentId: id, supersededBy: current.id },
        });
      }
      if (current.id === id) {
        if (current.status !== lastStatus) ctx.emit({ type: "wait", changeId, waitingFor: "deployment", id: String(id), status: current.status });
        lastStatus = current.status;
        if (current.status === "completed") return fn;
        if (current.status === "failed") {
          throw new PlatformError(ErrorCode.API_ERROR, `the build of function ${slug} (deployment ${id}) failed: ${current.error ?? "no error text"}`, {
            details: { slug, deploymentId: id, platformError: current.error ?? null },
          });
        }
      }
    }
    if (ctx.now() >= deadline) throw new TimeoutError({ waitingFor: `deployment of function ${slug}`, id: String(id), limitMs: ctx.timing.deploymentMs });
    await ctx.sleep(interval);
    interval = Math.min(interval * 2, ctx.timing.pollMaxMs);
  }
}

/** Deploys (with or without the archive), waits for the build, then reconciles the display name. */
export async function applyFunctionDeploy(ctx: ExecutionContext, changeId: string, op: PlannedDeployOp): Promise<HandlerDetails> {
  const details: HandlerDetails = { zipUploaded: op.deploy && op.withZip };
  let invocationUrl: string | undefined;
  if (op.deploy) {
    const marker = op.marker ?? (await ctx.functionMarker(op.slug));
    const deployment = await postDeployment(ctx, { ...op, marker });
    details.deploymentId = deployment.id;
    ctx.emit({ type: "wait", changeId, waitingFor: "deployment", id: String(deployment.id), status: deployment.status });
    invocationUrl = (await awaitBuild(ctx, changeId, op.slug, deployment.id)).invocation_url;
  }
  if (op.rename) {
    const name = desiredFunction(ctx, op.slug)?.name ?? op.slug;
    const updated = await mutateWithReconcile(
      ctx,
      () => ctx.api.updateFunction({ ...branchRef(ctx), slug: op.slug, name }),
      async () => (await getFunction(ctx, op.slug))?.name === name,
    );
    invocationUrl = updated?.invocation_url ?? invocationUrl;
  }
  if (invocationUrl !== undefined) details.invocationUrl = invocationUrl;
  return details;
}

/** `DELETE …/functions/{s}`; 404 counts as success. */
export async function applyFunctionDelete(ctx: ExecutionContext, op: DeleteOp): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteFunction({ ...branchRef(ctx), slug: op.slug }),
    async () => (await getFunction(ctx, op.slug)) === undefined,
  );
  return {};
}
