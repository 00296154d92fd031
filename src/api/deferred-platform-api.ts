/**
 * `createPlatformApi` as `svc-config/v1` exports it: it validates the options at once (the same
 * errors, thrown synchronously) and returns every method of {@link PlatformApi}, but loads the
 * HTTP client (transport, wire schemas and calls, `create-platform-api.ts`) with the first call
 * of any of them, once per client. Importing the package then loads none of it.
 */
import { type ClientConfig, observing, resolveClientOptions, type PlatformApiOptions } from "./client-options.js";
import { observable } from "./request-observer.js";
import type * as ClientModule from "./create-platform-api.js";
import type { PlatformApi } from "./platform-api.js";

/** Every method of the adapter interface (the compiler refuses a missing or unknown name). */
const METHODS = Object.keys({
  listProjects: 0, getProject: 0, listBranches: 0, getBranch: 0, createBranch: 0, updateBranch: 0, deleteBranch: 0, listEndpoints: 0,
  createEndpoint: 0, updateEndpoint: 0, deleteEndpoint: 0, getOperation: 0, waitForOperations: 0, listDatabases: 0, listRoles: 0, createRole: 0,
  deleteRole: 0, createDatabase: 0, updateDatabase: 0, deleteDatabase: 0, getConnectionUri: 0, compareSchema: 0, getAuth: 0, createAuth: 0,
  getDataApi: 0, createDataApi: 0, updateDataApi: 0, deleteDataApi: 0, listBuckets: 0, createBucket: 0, deleteBucket: 0, listBucketObjects: 0,
  listFunctions: 0, listFunctionBuilds: 0, getFunction: 0, createDeployment: 0, updateFunction: 0, deleteFunction: 0, listTriggers: 0, createTrigger: 0,
  updateTrigger: 0, deleteTrigger: 0, listCustomDomains: 0, createCustomDomain: 0, deleteCustomDomain: 0, listCredentials: 0,
  createCredential: 0, deleteCredential: 0, getAiGateway: 0, listApiKeys: 0, createApiKey: 0, revokeApiKey: 0,
} satisfies Record<keyof PlatformApi, 0>) as (keyof PlatformApi)[];

/** A method of the client, called with what the caller passed. */
type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * Creates a platform client over `fetch`. Validates the options first: an empty `apiKey` throws
 * `PLATFORM_MISSING_API_KEY`, a malformed `apiHost`, timeout or polling value
 * `PLATFORM_INVALID_OPTIONS`. No request is made until a method is called. Every call is there,
 * the optional `compareSchema` and `listFunctionBuilds` included.
 */
export function createPlatformApi(options: PlatformApiOptions): Required<PlatformApi> {
  return deferredOver(resolveClientOptions(options));
}

/** The deferred client of a validated configuration; its observed siblings are deferred too. */
function deferredOver(config: ClientConfig): Required<PlatformApi> {
  let client: Promise<Required<PlatformApi>> | undefined;
  const load = (): Promise<Required<PlatformApi>> => {
    client ??= import("./create-platform-api.js").then((module: typeof ClientModule) => module.platformApiOver(config));
    return client;
  };
  const api: Partial<Record<keyof PlatformApi, AnyMethod>> = {};
  // Each method has the signature of the client's method of that name, which it calls.
  for (const name of METHODS) api[name] = async (...args) => ((await load())[name] as AnyMethod)(...args);
  return observable(api as Required<PlatformApi>, (observer) => deferredOver(observing(config, observer)));
}
