/**
 * The platform's variables for `svc dev`, read from the target branch through the API: its
 * connection URLs, auth and Data API URLs, the AI gateway's URL and the deployed functions' URLs.
 * A service the policy declares but the branch lacks is a note, not an error: dev goes on without
 * its variables. Credentials (the AI gateway token, object storage keys) are issued to deployed
 * functions only; dev never creates one, so it says which variables to set yourself.
 */
import type { PlatformApi } from "../../api/platform-api.js";
import { isCliError } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import type { PlatformEnvValues } from "../../rules/function-env.js";
import { chooseBranchDatabase, declaredDatabasesOf } from "../branch-database.js";
import { passwordOf } from "../write-env.js";

/** The branch `svc dev` takes its variables from. */
export interface DevBranch {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  branchName: string;
}

/** What was read: the values, one note per variable left out, and the secrets to keep out of output. */
export interface BranchEnvReading {
  values: PlatformEnvValues;
  notes: string[];
  secrets: string[];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.split("\n")[0] ?? "" : String(err);
}

/** `undefined` for a feature the branch's region or plan lacks (404 feature unavailable). */
async function optional<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE) || isPlatformError(err, ErrorCode.NOT_FOUND)) return undefined;
    throw err;
  }
}


/**
 * Reads the branch's variables for the functions of `policy` (its declared databases, auth, Data
 * API, AI gateway and buckets decide which absences are worth a note). Reads run in parallel; a
 * read that fails becomes a note naming the variables left out.
 */
export async function readBranchEnv(branch: DevBranch, policy: Pick<ResolvedPolicy, "auth" | "dataApi" | "aiGateway" | "buckets"> & { config?: unknown }): Promise<BranchEnvReading> {
  const { api, projectId, branchId, branchName } = branch;
  const ids = { projectId, branchId };
  const values: PlatformEnvValues = { branchName };
  const notes: string[] = [];
  const secrets: string[] = [];
  const declaredDatabases = declaredDatabasesOf(policy.config);

  const database = (async () => {
    const databases = await api.listDatabases(ids);
    let chosen: { database: string; role: string };
    try {
      chosen = chooseBranchDatabase(databases, { branchName, declaredDatabases });
    } catch (err) {
      if (!isCliError(err)) throw err;
      notes.push(`DATABASE_URL and DATABASE_URL_UNPOOLED are not set: ${err.message}`);
      return undefined;
    }
    const uri = (pooled: boolean): Promise<string> => api.getConnectionUri({ ...ids, databaseName: chosen.database, roleName: chosen.role, ...(pooled ? { pooled: true } : {}) });
    const [pooledUrl, directUrl] = await Promise.all([uri(true), uri(false)]);
    secrets.push(pooledUrl, directUrl, ...[passwordOf(pooledUrl), passwordOf(directUrl)].filter((p): p is string => p !== undefined));
    values.database = { pooledUrl, directUrl };
    return chosen.database;
  })();

  const reads: Promise<void>[] = [
    database.then(() => undefined),
    (async () => {
      const auth = await optional(() => api.getAuth(ids));
      if (auth?.base_url !== undefined && auth.jwks_url !== undefined) values.auth = { baseUrl: auth.base_url, jwksUrl: auth.jwks_url };
      else if (policy.auth === "enabled") notes.push(`svc.ts enables auth but branch ${branchName} has none: SVC_AUTH_BASE_URL and SVC_AUTH_JWKS_URL are not set.`);
    })(),
    (async () => {
      const declared = policy.dataApi.state === "enabled" ? policy.dataApi.database : undefined;
      const databaseName = declared ?? (await database.catch(() => undefined));
      const dataApi = databaseName === undefined ? undefined : await optional(() => api.getDataApi({ ...ids, databaseName }));
      if (dataApi?.url !== undefined && dataApi.url !== null && dataApi.url !== "") values.dataApiUrl = dataApi.url;
      else if (declared !== undefined) notes.push(`svc.ts enables the Data API on ${declared} but branch ${branchName} has none: SVC_DATA_API_URL is not set.`);
    })(),
    (async () => {
      const gateway = await optional(() => api.getAiGateway(ids));
      if (gateway?.enabled === true) {
        notes.push("SVC_AI_GATEWAY_BASE_URL is set; SVC_AI_GATEWAY_TOKEN is not (svc dev issues no credentials): set it in your shell or an --env file.");
        values.aiGateway = { baseUrl: gateway.base_url };
      } else if (policy.aiGateway) notes.push(`svc.ts enables the AI gateway but branch ${branchName} has none: SVC_AI_GATEWAY_* are not set.`);
    })(),
    (async () => {
      const functions = (await optional(() => api.listFunctions(ids))) ?? [];
      values.functionUrls = Object.fromEntries(functions.filter((f) => f.invocation_url !== "").map((f) => [f.slug, f.invocation_url]));
    })(),
  ];
  if (policy.buckets.length > 0) notes.push("AWS_* are not set (svc dev issues no object storage credentials): set them in your shell or an --env file to reach the buckets.");
  const settled = await Promise.allSettled(reads);
  const labels = ["DATABASE_URL", "SVC_AUTH_*", "SVC_DATA_API_URL", "SVC_AI_GATEWAY_*", "SVC_FUNCTION_*_URL"];
  settled.forEach((outcome, i) => {
    if (outcome.status === "rejected") notes.push(`${labels[i] ?? "some variables"}: could not read branch ${branchName} (${messageOf(outcome.reason)}); going on without.`);
  });
  return { values, notes, secrets };
}
