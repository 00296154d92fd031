/**
 * The platform adapter the engine and the CLI talk to: one method per management-API call
 * they need. `createPlatformApi`
 * implements it over HTTP; tests and callers may inject their own (`api` option, seed).
 *
 * Contract every implementation honours:
 * - Ids are passed as given (branch ids, never names); results use the wire vocabulary of
 *   `wire-types.ts`.
 * - Failures are `PlatformError`s (`ApiError`, `NetworkError`, `OutcomeUnknownError`,
 *   `TimeoutError`, `FeatureUnavailableError`); `get*` methods documented as returning `null`
 *   do so when the resource is absent instead of throwing.
 * - Lists return every page.
 * - Mutations that start control-plane operations return them; callers pass them to
 *   `waitForOperations` before a dependent request.
 */
import type { EndpointSettingsInput } from "../kinds/compute/wire.js";
import type {
  ApiAiGateway,
  ApiAuthCredentials,
  ApiAuthIntegration,
  ApiBranch,
  ApiBucket,
  ApiBucketObjectPage,
  ApiCredential,
  ApiCredentialSecret,
  ApiCustomDomain,
  ApiDataApi,
  ApiDatabase,
  ApiDeployment,
  ApiEndpoint,
  ApiFunction,
  ApiFunctionBuild,
  ApiKeyCreated,
  ApiKeyRecord,
  ApiOperation,
  ApiProject,
  ApiRole,
  ApiTrigger,
  ApiTriggerInput,
} from "./wire-types.js";

export type * from "./wire-types.js";

/** Identifies a project. */
export interface ProjectRef {
  projectId: string;
}

/** Identifies a branch of a project (by id, never by name). */
export interface BranchRef extends ProjectRef {
  branchId: string;
}

/** Endpoint settings accepted on branch create and endpoint update: the compute settings in wire names. */
export type { EndpointSettingsInput };

/** `POST /projects/{p}/branches`. */
export interface CreateBranchParams extends ProjectRef {
  branch?: { name?: string; parent_id?: string; protected?: boolean; expires_at?: string };
  endpoints?: (EndpointSettingsInput & { type: "read_write" | "read_only" })[];
  /** The branch's annotation (at most 50 string entries); set only at creation. */
  annotation_value?: Record<string, string>;
}

/** A branch as listed: the record plus its annotation's values (`{}` when it has none). */
export type ApiListedBranch = ApiBranch & { annotation: Record<string, string> };

/** What creating a branch returns. */
export interface CreateBranchResult {
  branch: ApiBranch;
  endpoints: ApiEndpoint[];
  databases: ApiDatabase[];
  roles: ApiRole[];
  operations: ApiOperation[];
}

/** `PATCH /projects/{p}/branches/{b}`; `expires_at: null` clears the expiry. */
export interface UpdateBranchParams extends BranchRef {
  branch: { name?: string; protected?: boolean; expires_at?: string | null };
}

/** `POST /projects/{p}/endpoints`: a compute endpoint on the branch (its settings in wire names; the others the project's defaults). */
export interface CreateEndpointParams extends BranchRef {
  endpoint: EndpointSettingsInput & { type: "read_write" | "read_only"; name?: string };
}

/** `PATCH /projects/{p}/endpoints/{e}`. */
export interface UpdateEndpointParams extends ProjectRef {
  endpointId: string;
  endpoint: EndpointSettingsInput;
}

/** Options of {@link PlatformApi.waitForOperations}. */
export interface WaitForOperationsParams extends ProjectRef {
  /** The operations a mutation returned; terminal ones are not polled. */
  operations: readonly ApiOperation[];
}

/** `GET /projects/{p}/connection_uri`. The result is a secret: never log it. */
export interface ConnectionUriParams extends BranchRef {
  databaseName: string;
  roleName: string;
  endpointId?: string;
  pooled?: boolean;
}

/** `GET …/compare_schema`: one database of the branch against the same database of the base. */
export interface CompareSchemaParams extends BranchRef {
  databaseName: string;
  /** The branch compared with; default: the branch's parent. */
  baseBranchId?: string;
}

/** `POST …/auth`. */
export interface CreateAuthParams extends BranchRef {
  /** @default "better_auth" */
  authProvider?: string;
  databaseName?: string;
}

/** What enabling auth gives; `alreadyEnabled` when the platform answered 409 and it was read back. */
export interface CreateAuthResult {
  credentials: ApiAuthCredentials;
  alreadyEnabled: boolean;
}

/** Identifies the Data API of one database. */
export interface DataApiRef extends BranchRef {
  databaseName: string;
}

/** `POST …/data-api/{db}`. */
export interface CreateDataApiParams extends DataApiRef {
  auth_provider?: "neon_auth" | "external";
  jwks_url?: string;
  provider_name?: string;
  jwt_audience?: string;
  add_default_grants?: boolean;
  /** Wire (snake_case) settings. */
  settings?: Record<string, unknown>;
}

/** `PATCH …/data-api/{db}`: wire (snake_case) settings. */
export interface UpdateDataApiParams extends DataApiRef {
  settings: Record<string, unknown>;
}

/** `POST …/buckets`. */
export interface CreateBucketParams extends BranchRef {
  name: string;
  access_level?: string;
}

/** `GET …/buckets/{bucket}/objects`: one page. */
export interface ListBucketObjectsParams extends BranchRef {
  bucket: string;
  prefix?: string;
  cursor?: string;
  /** @default 1000 */
  limit?: number;
}

/** `POST …/functions/{slug}/deployments`: omitted parts inherit from the latest deployment. */
export interface CreateDeploymentParams extends BranchRef {
  slug: string;
  /** Raw ZIP bytes, sent as the `zip` part (`bundle.zip`, `application/zip`). */
  zip?: Uint8Array;
  /** @example "nodejs24" */
  runtime?: string;
  /** Sent JSON-encoded as the `environment` part; an empty value deletes the name. */
  environment?: Record<string, string>;
}

/** `PATCH …/functions/{slug}`; `null` resets the name to the slug. */
export interface UpdateFunctionParams extends BranchRef {
  slug: string;
  name: string | null;
}

/** Identifies a function. */
export interface FunctionRef extends BranchRef {
  slug: string;
}

/** `POST …/triggers`. */
export interface CreateTriggerParams extends BranchRef {
  trigger: ApiTriggerInput & { function_slug: string; name: string };
}

/** `PATCH …/triggers/{id}`: `type` plus the changed fields. */
export interface UpdateTriggerParams extends BranchRef {
  triggerId: string;
  trigger: ApiTriggerInput;
}

/** Identifies a trigger. */
export interface TriggerRef extends BranchRef {
  triggerId: string;
}

/** `POST …/custom-domains`. */
export interface CreateCustomDomainParams extends BranchRef {
  domain: string;
  /** @default "function" */
  entity_type?: string;
  entity_id: string;
}

/** Identifies a custom domain on a branch. */
export interface CustomDomainRef extends BranchRef {
  domain: string;
}

/** `POST …/credentials`. */
export interface CreateCredentialParams extends BranchRef {
  scopes: string[];
  name?: string;
  expires_at?: string;
}

/**
 * Every platform call the engine and the CLI make. Implemented over HTTP by
 * `createPlatformApi`; inject your own as the `api` option (it gets no extra retries).
 */
export interface PlatformApi {
  /** `GET /projects` (all pages); `search` filters by name or id substring. */
  listProjects(params?: { search?: string; orgId?: string }): Promise<ApiProject[]>;
  /** `GET /projects/{p}`. */
  getProject(params: ProjectRef): Promise<ApiProject>;

  /** `GET /projects/{p}/branches` (all pages), each branch with its annotation's values. */
  listBranches(params: ProjectRef & { search?: string }): Promise<ApiListedBranch[]>;
  /** `GET /projects/{p}/branches/{b}`; a missing branch throws `PLATFORM_NOT_FOUND`. */
  getBranch(params: BranchRef): Promise<ApiBranch>;
  /** `POST /projects/{p}/branches`. */
  createBranch(params: CreateBranchParams): Promise<CreateBranchResult>;
  /** `PATCH /projects/{p}/branches/{b}`. */
  updateBranch(params: UpdateBranchParams): Promise<{ branch: ApiBranch; operations: ApiOperation[] }>;
  /** `DELETE /projects/{p}/branches/{b}`; `deleted: false` when it did not exist. */
  deleteBranch(params: BranchRef): Promise<{ deleted: boolean; operations: ApiOperation[] }>;

  /** `GET /projects/{p}/branches/{b}/endpoints`. */
  listEndpoints(params: BranchRef): Promise<ApiEndpoint[]>;
  /** `POST /projects/{p}/endpoints` `{endpoint: {branch_id, ...endpoint}}` (a branch has at most one `read_write` endpoint). */
  createEndpoint(params: CreateEndpointParams): Promise<{ endpoint: ApiEndpoint; operations: ApiOperation[] }>;
  /** `PATCH /projects/{p}/endpoints/{e}`. */
  updateEndpoint(params: UpdateEndpointParams): Promise<{ endpoint: ApiEndpoint; operations: ApiOperation[] }>;
  /** `DELETE /projects/{p}/endpoints/{e}`; `deleted: false` when it did not exist (204). */
  deleteEndpoint(params: ProjectRef & { endpointId: string }): Promise<{ deleted: boolean; operations: ApiOperation[] }>;

  /** `GET /projects/{p}/operations/{id}`. */
  getOperation(params: ProjectRef & { operationId: string }): Promise<ApiOperation>;
  /**
   * Waits until each operation is terminal. Every wait in progress on a project shares one
   * watcher: one `GET /projects/{p}/operations` per tick (newest first, paging until all pending
   * ids are seen), ticks from `polling.initialMs` ×1.5 while nothing completes up to
   * `polling.maxMs`, limit `timeouts.operationMs` per wait. Resolves with the final records when all are `finished`/`skipped`; a `failed`, `error` or
   * `cancelled` one throws `ApiError` naming the operation and its action.
   */
  waitForOperations(params: WaitForOperationsParams): Promise<ApiOperation[]>;

  /** `GET …/databases`. */
  listDatabases(params: BranchRef): Promise<ApiDatabase[]>;
  /** `GET …/roles`. */
  listRoles(params: BranchRef): Promise<ApiRole[]>;
  /** `POST …/roles` `{role: {name, ...fields}}` (`fields`: wire names, e.g. `no_login`); the password in the response is dropped, never read. */
  createRole(params: BranchRef & { name: string; fields: Record<string, unknown> }): Promise<{ role: ApiRole; operations: ApiOperation[] }>;
  /** `DELETE …/roles/{role}` (409 while it owns a database). */
  deleteRole(params: BranchRef & { role: string }): Promise<{ operations: ApiOperation[] }>;
  /** `POST …/databases` `{database: {name, ...fields}}` (`fields`: wire names, `owner_name`). */
  createDatabase(params: BranchRef & { name: string; fields: Record<string, unknown> }): Promise<{ database: ApiDatabase; operations: ApiOperation[] }>;
  /** `PATCH …/databases/{db}` `{database: fields}` (wire names, `owner_name`). */
  updateDatabase(params: BranchRef & { database: string; fields: Record<string, unknown> }): Promise<{ database: ApiDatabase; operations: ApiOperation[] }>;
  /** `DELETE …/databases/{db}`: the database and its data. */
  deleteDatabase(params: BranchRef & { database: string }): Promise<{ operations: ApiOperation[] }>;
  /** `GET /projects/{p}/connection_uri`: a secret URI. */
  getConnectionUri(params: ConnectionUriParams): Promise<string>;
  /**
   * `GET …/compare_schema`: the unified diff of one database's schema from `baseBranchId` (default:
   * the branch's parent) to the branch, as the platform renders it (`""` when equal); a branch
   * without a parent needs `baseBranchId`. Optional: only `svc branch diff` and `plan --schema-diff`
   * read it (the engine's operations never do), so an adapter may leave it out.
   */
  compareSchema?(params: CompareSchemaParams): Promise<string>;

  /** `GET …/auth`; `null` when auth is not enabled (404). */
  getAuth(params: BranchRef): Promise<ApiAuthIntegration | null>;
  /** `POST …/auth`; a 409 (already enabled) is read back. */
  createAuth(params: CreateAuthParams): Promise<CreateAuthResult>;

  /** `GET …/data-api/{db}`; `null` when not enabled (404). */
  getDataApi(params: DataApiRef): Promise<ApiDataApi | null>;
  /** `POST …/data-api/{db}`; a 409 (already enabled) counts as success. */
  createDataApi(params: CreateDataApiParams): Promise<{ url?: string; alreadyEnabled: boolean }>;
  /** `PATCH …/data-api/{db}` `{settings}`. */
  updateDataApi(params: UpdateDataApiParams): Promise<void>;
  /** `DELETE …/data-api/{db}`; 404 counts as success. */
  deleteDataApi(params: DataApiRef): Promise<void>;

  /** `GET …/buckets` (ancestors' buckets included). */
  listBuckets(params: BranchRef): Promise<ApiBucket[]>;
  /** `POST …/buckets`. */
  createBucket(params: CreateBucketParams): Promise<ApiBucket>;
  /** `DELETE …/buckets/{name}`; 404 counts as success. */
  deleteBucket(params: BranchRef & { bucket: string }): Promise<void>;
  /** `GET …/buckets/{name}/objects`: one page. */
  listBucketObjects(params: ListBucketObjectsParams): Promise<ApiBucketObjectPage>;

  /** `GET …/functions` (all pages). */
  listFunctions(params: BranchRef): Promise<ApiFunction[]>;
  /**
   * `GET …/functions` (all pages), each function read for its build only: slug, invocation URL,
   * and its current deployment's id, status and error. Optional: a build watcher uses
   * `listFunctions` when an adapter has no such method.
   */
  listFunctionBuilds?(params: BranchRef): Promise<ApiFunctionBuild[]>;
  /** `GET …/functions/{slug}`; a missing function throws `PLATFORM_NOT_FOUND`. */
  getFunction(params: FunctionRef): Promise<ApiFunction>;
  /** `POST …/functions/{slug}/deployments` as multipart (`zip`, `runtime`, `environment`). */
  createDeployment(params: CreateDeploymentParams): Promise<ApiDeployment>;
  /** `PATCH …/functions/{slug}` `{name}`. */
  updateFunction(params: UpdateFunctionParams): Promise<ApiFunction>;
  /** `DELETE …/functions/{slug}`; 404 counts as success. */
  deleteFunction(params: FunctionRef): Promise<void>;

  /** `GET …/triggers` (inherited ones included). */
  listTriggers(params: BranchRef): Promise<ApiTrigger[]>;
  /** `POST …/triggers`. */
  createTrigger(params: CreateTriggerParams): Promise<ApiTrigger>;
  /** `PATCH …/triggers/{id}`. */
  updateTrigger(params: UpdateTriggerParams): Promise<ApiTrigger>;
  /** `DELETE …/triggers/{id}`; 404 counts as success. */
  deleteTrigger(params: TriggerRef): Promise<void>;

  /** `GET …/custom-domains` (all pages). */
  listCustomDomains(params: BranchRef): Promise<ApiCustomDomain[]>;
  /** `POST …/custom-domains`; a same-owner re-register returns the unchanged record. */
  createCustomDomain(params: CreateCustomDomainParams): Promise<ApiCustomDomain>;
  /** `DELETE …/custom-domains/{domain}`; 404 counts as success. */
  deleteCustomDomain(params: CustomDomainRef): Promise<void>;

  /** `GET …/credentials`: metadata only (revoked ones included, with `revoked_at`). */
  listCredentials(params: BranchRef): Promise<ApiCredential[]>;
  /** `POST …/credentials` (`principal_type: "user"`): the secrets are shown once. */
  createCredential(params: CreateCredentialParams): Promise<ApiCredentialSecret>;
  /** `DELETE …/credentials/{token_id}`; 404 counts as success. */
  deleteCredential(params: BranchRef & { tokenId: string }): Promise<void>;

  /** `GET …/ai_gateway`; unavailable → `FeatureUnavailableError`. */
  getAiGateway(params: BranchRef): Promise<ApiAiGateway>;

  /** `GET /api_keys` (personal key). */
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** `POST /api_keys`: the token `key` is shown once. */
  createApiKey(params: { name: string }): Promise<ApiKeyCreated>;
  /** `DELETE /api_keys/{id}`. */
  revokeApiKey(params: { keyId: number }): Promise<ApiKeyRecord>;
}
