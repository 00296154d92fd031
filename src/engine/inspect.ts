/**
 * `inspect` / `pullConfig` (engine.md §11): read a branch in three waves and return it as a
 * policy plus metadata. Read-only; never creates anything.
 */
import type { PlatformApi } from "../api/platform-api.js";
import type { ApiDatabase } from "../api/wire-types.js";
import type { EngineEvent } from "../model/events.js";
import { inReadWave, withApiEvents } from "./events.js";
import { prepareRuntime, type ConfigOperationOptions } from "./options.js";
import { ErrorCode, isPlatformError } from "../errors/index.js";
import { buildPulledBranchConfig, type PulledBranchConfig } from "../inspect/pulled-config.js";
import { branchNotFoundError } from "../inspect/read-live-state.js";
import { DEFAULT_SERVICE_DATABASE } from "../inspect/read-needs.js";

/**
 * Reads the branch `options.branchId` and returns it as a `PulledBranchConfig` whose `config`
 * passes `defineConfig` and plans clean against the same branch. Features the platform does
 * not offer here read as none.
 *
 * @throws PlatformError `PLATFORM_MISSING_API_KEY` (neither `apiKey` nor `api`),
 * `PLATFORM_INVALID_OPTIONS`, `PLATFORM_BRANCH_NOT_FOUND` (listing `name (id)` of every
 * branch), or the client's errors.
 */
export async function inspect(options: ConfigOperationOptions): Promise<PulledBranchConfig> {
  const { api, emit } = prepareRuntime("inspect", options);
  return withApiEvents(emit, () => inspectWith(api, options.projectId, options.branchId, emit));
}

/** Identical to {@link inspect} (seed 002). */
export const pullConfig: (options: ConfigOperationOptions) => Promise<PulledBranchConfig> = inspect;

/** The three waves of an inspection on an adapter; `emit` gets a `read` event per request. */
export async function inspectWith(api: PlatformApi, projectId: string, branchId: string, emit: (event: EngineEvent) => void = () => undefined): Promise<PulledBranchConfig> {
  const ref = { projectId, branchId };
  const project = await inReadWave(emit, 1, () => api.getProject({ projectId }));

  const [branches, endpoints, databases, roles, auth, buckets, functions, credentials, triggers, customDomains] = await inReadWave(emit, 2, () => Promise.allSettled([
    api.listBranches({ projectId }),
    api.listEndpoints(ref),
    api.listDatabases(ref),
    api.listRoles(ref),
    noneIfUnavailable(api.getAuth(ref), null),
    noneIfUnavailable(api.listBuckets(ref), []),
    noneIfUnavailable(api.listFunctions(ref), []),
    noneIfUnavailable(api.listCredentials(ref), []),
    noneIfUnavailable(api.listTriggers(ref), []),
    noneIfUnavailable(api.listCustomDomains(ref), []),
  ]));
  const allBranches = settled(branches);
  const branch = allBranches.find((b) => b.id === branchId);
  if (branch === undefined) throw branchNotFoundError({ projectId, branchId, branches: allBranches });

  const database = dataApiDatabase(settled(databases), settled(auth)?.db_name);
  const dataApi = database === null ? null : await inReadWave(emit, 3, () => noneIfUnavailable(api.getDataApi({ ...ref, databaseName: database }), null));

  return buildPulledBranchConfig({
    project,
    branch,
    branches: allBranches,
    endpoints: settled(endpoints),
    roles: settled(roles),
    databases: settled(databases),
    auth: settled(auth),
    dataApi: database === null || dataApi === null ? null : { database, record: dataApi },
    buckets: settled(buckets),
    functions: settled(functions),
    credentials: settled(credentials),
    triggers: settled(triggers),
    customDomains: settled(customDomains),
  });
}

/**
 * The database whose Data API a pull reads: the one the branch's auth integration uses (the
 * service database a plan of the pulled file reads too), else `neondb`, else the only database,
 * else none.
 */
export function dataApiDatabase(databases: readonly ApiDatabase[], authDatabase?: string): string | null {
  for (const preferred of [authDatabase, DEFAULT_SERVICE_DATABASE]) {
    if (preferred !== undefined && databases.some((d) => d.name === preferred)) return preferred;
  }
  const only = databases.length === 1 ? databases[0] : undefined;
  return only === undefined ? null : only.name;
}

async function noneIfUnavailable<T>(read: Promise<T>, none: T): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) return none;
    throw err;
  }
}

function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "fulfilled") return result.value;
  throw result.reason;
}
