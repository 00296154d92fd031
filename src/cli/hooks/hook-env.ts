/**
 * The variables an `after` hook gets: what a function on the branch sees (its database URLs,
 * `SVC_BRANCH`, the auth and Data API URLs when enabled, the other functions' URLs), read from
 * the API once the command has finished. The connection URLs and their passwords are returned as
 * secrets, so the CLI never prints them.
 */
import type { PlatformApi } from "../../api/platform-api.js";
import { platformEnvironment, type PlatformEnvValues } from "../../rules/function-env.js";
import { chooseEnvDatabase, declaredDatabasesOf, passwordOf } from "../write-env.js";
import type { BranchEnvReading } from "./lifecycle.js";

/** The branch whose variables are read. */
export interface HookEnvTarget {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  branchName: string;
  /** The evaluated policy: its declared databases choose the one `DATABASE_URL` points at. */
  config: unknown;
}

/** Reads the branch's function environment (see the module comment). */
export async function readHookEnv(target: HookEnvTarget): Promise<BranchEnvReading> {
  const { api, projectId, branchId, branchName } = target;
  const ids = { projectId, branchId };
  const [databases, auth, functions] = await Promise.all([api.listDatabases(ids), api.getAuth(ids).catch(() => null), api.listFunctions(ids).catch(() => [])]);
  const values: PlatformEnvValues = { branchName, functionUrls: Object.fromEntries(functions.filter((f) => f.invocation_url !== "").map((f) => [f.slug, f.invocation_url])) };
  const secrets: string[] = [];
  if (databases.length > 0) {
    const { database, role } = chooseEnvDatabase(databases, { branchName, declaredDatabases: declaredDatabasesOf(target.config) });
    const uri = (pooled: boolean): Promise<string> => api.getConnectionUri({ ...ids, databaseName: database, roleName: role, ...(pooled ? { pooled: true } : {}) });
    const [pooledUrl, directUrl] = await Promise.all([uri(true), uri(false)]);
    values.database = { pooledUrl, directUrl };
    secrets.push(pooledUrl, directUrl, ...[pooledUrl, directUrl].map(passwordOf).filter((p): p is string => p !== undefined));
    const dataApi = await api.getDataApi({ ...ids, databaseName: database }).catch(() => null);
    if (dataApi !== null && dataApi.url !== "") values.dataApiUrl = dataApi.url;
  }
  if (auth?.base_url !== undefined && auth.jwks_url !== undefined) values.auth = { baseUrl: auth.base_url, jwksUrl: auth.jwks_url };
  return { env: platformEnvironment(values, ""), secrets };
}
