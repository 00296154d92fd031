/**
 * `inspect` / `pullConfig`: read a branch in three waves and return it as a
 * policy plus metadata. Read-only; never creates anything.
 */
import type { PlatformApi } from "../api/platform-api.js";
import type { ApiDatabase } from "../api/wire-types.js";
import type { EngineEvent } from "../model/events.js";
import { inReadWave, withApiEvents } from "./events.js";
import { ownOptions, prepareRuntime, type ConfigOperationOptions } from "./options.js";
import { ErrorCode, isPlatformError } from "../errors/index.js";
import { buildPulledBranchConfig, type PulledBranchConfig } from "../inspect/pulled-config.js";
import { KIND_PULLS, POLICY_KINDS } from "../kinds/list.js";
import { compareCodePoints } from "../inspect/normalize.js";
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
export async function inspect(given: ConfigOperationOptions): Promise<PulledBranchConfig> {
  const options = ownOptions(given);
  const { api, emit } = prepareRuntime("inspect", options);
  return withApiEvents(emit, () => inspectWith(api, options.projectId, options.branchId, emit));
}

/** Identical to {@link inspect}. */
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

  const candidates = dataApiDatabases(settled(databases), settled(auth)?.db_name);
  const found = await inReadWave(emit, 3, () => Promise.all(candidates.map((name) => noneIfUnavailable(api.getDataApi({ ...ref, databaseName: name }), null))));
  const index = found.findIndex((record) => record !== null);
  const database = index < 0 ? null : (candidates[index] ?? null);
  const dataApi = index < 0 ? null : (found[index] ?? null);

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
  }, KIND_PULLS, POLICY_KINDS);
}

/**
 * The databases whose Data API a pull reads, in preference order (the first that has one is
 * pulled, with its `database`, so a plan of the pulled file reads the same one): the database
 * the branch's auth integration uses, alone; without auth, every database, `neondb` first and
 * the others by name.
 */
export function dataApiDatabases(databases: readonly ApiDatabase[], authDatabase?: string): string[] {
  const names = databases.map((d) => d.name);
  if (authDatabase !== undefined && names.includes(authDatabase)) return [authDatabase];
  return names.sort((a, b) => (a === DEFAULT_SERVICE_DATABASE ? -1 : b === DEFAULT_SERVICE_DATABASE ? 1 : compareCodePoints(a, b)));
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
