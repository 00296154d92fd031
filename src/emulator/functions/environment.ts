/**
 * The environment of a function version running in the emulator, computed from the emulator's
 * own records: the platform's variables (names and precedence from the shared rule) for the
 * function's branch, then the deployment's own environment. `DATABASE_URL` connects to the
 * branch's real database with real databases, and is the records' placeholder (a host under
 * `.emulator.invalid`) otherwise; auth, Data API and AI gateway URLs are the records' (they point
 * at nothing locally); object storage is the emulator's S3 endpoint with the branch's key pair.
 */
import { createHmac } from "node:crypto";
import { functionEnvironment, platformEnvironment, type PlatformEnvValues } from "../../rules/function-env.js";
import { RuleError } from "../engine/rule-error.js";
import { aiGatewayUrl, authUrls, dataApiUrl, readWriteEndpoint } from "../engine/service-urls.js";
import { storageBranch } from "../engine/storage.js";
import { connectionUri } from "../routes/shared.js";
import { branchStorageKeys } from "../s3/credentials.js";
import { S3_PATH_PREFIX } from "../s3/routes.js";
import type { BranchRec, DatabaseRec, DeploymentRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";

/** A connection URI of a branch role and database on the real PostgreSQL (creates them when missing). */
export type RealDatabaseUri = (project: ProjectRec, branch: BranchRec, role: string, database: string, pooled: boolean) => Promise<string>;

/** What the environment is computed from besides the records. */
export interface EnvironmentContext {
  world: World;
  /** The emulator's origin (`http://127.0.0.1:4010`), where the S3 endpoint answers. */
  origin: string;
  /** Present with real databases. */
  realDatabaseUri?: RealDatabaseUri;
  /** The base URL of a function of the branch, when it answers. */
  functionUrl: (project: ProjectRec, branch: BranchRec, slug: string) => string | undefined;
}

/** The branch's default database: the oldest one (the project's first database on the default branch). */
function defaultDatabase(branch: BranchRec): DatabaseRec | undefined {
  let best: DatabaseRec | undefined;
  for (const d of branch.databases.values()) if (best === undefined || d.id < best.id) best = d;
  return best;
}

async function databaseUrls(ctx: EnvironmentContext, project: ProjectRec, branch: BranchRec): Promise<PlatformEnvValues["database"]> {
  const database = defaultDatabase(branch);
  const role = database === undefined ? undefined : branch.roles.get(database.ownerName);
  if (database === undefined || role === undefined) return undefined;
  // A claimed claimable project's database lives on the claimable side; its records' URIs are real already.
  if (ctx.realDatabaseUri !== undefined && project.localPostgres === undefined) {
    return { pooledUrl: await ctx.realDatabaseUri(project, branch, role.name, database.name, true), directUrl: await ctx.realDatabaseUri(project, branch, role.name, database.name, false) };
  }
  const endpoint = readWriteEndpoint(project, branch);
  if (endpoint === undefined) return undefined;
  return { pooledUrl: connectionUri(ctx.world, project, endpoint, role, database.name, true), directUrl: connectionUri(ctx.world, project, endpoint, role, database.name, false) };
}

/** Whether the branch's object storage is available (region and organization entitlement). */
function offersStorage(world: World, project: ProjectRec, branch: BranchRec): boolean {
  try {
    storageBranch(world, project, branch.id, "storage");
    return true;
  } catch (err) {
    if (err instanceof RuleError) return false;
    throw err;
  }
}

/** The platform's values for a function's branch. */
async function platformValues(ctx: EnvironmentContext, project: ProjectRec, branch: BranchRec): Promise<PlatformEnvValues> {
  const { world } = ctx;
  const database = await databaseUrls(ctx, project, branch);
  const dataApiDatabase = [...branch.dataApi.keys()].sort()[0];
  const functionUrls: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const slug of branch.functions.keys()) {
    const url = ctx.functionUrl(project, branch, slug);
    if (url !== undefined) functionUrls[slug] = url;
  }
  const features = world.regionOf(project).features;
  const storage = branch.buckets.size > 0 && offersStorage(world, project, branch) ? branchStorageKeys(world, project, branch) : undefined;
  return {
    branchName: branch.name,
    ...(database !== undefined ? { database } : {}),
    ...(branch.auth !== undefined ? { auth: authUrls(world, project, branch, branch.auth.databaseName) } : {}),
    ...(dataApiDatabase !== undefined ? { dataApiUrl: dataApiUrl(world, project, branch, dataApiDatabase) } : {}),
    ...(features
      ? { aiGateway: { baseUrl: aiGatewayUrl(world, project, branch), token: `nt_live_${createHmac("sha256", world.presignSecret).update(`ai-gateway-token\u0000${project.id}\u0000${branch.id}`).digest("hex").slice(0, 48)}` } }
      : {}),
    ...(storage !== undefined
      ? { objectStorage: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey, endpointUrl: `${ctx.origin}${S3_PATH_PREFIX}/${branch.id}`, region: project.regionId } }
      : {}),
    functionUrls,
  };
}

/** The whole environment of function `slug` at `deployment`: the platform's variables, then the deployment's own (last wins). */
export async function deploymentEnvironment(ctx: EnvironmentContext, project: ProjectRec, branch: BranchRec, slug: string, deployment: DeploymentRec): Promise<Record<string, string>> {
  const platform = platformEnvironment(await platformValues(ctx, project, branch), slug);
  return functionEnvironment({ platform, own: Object.fromEntries(deployment.environment) });
}
