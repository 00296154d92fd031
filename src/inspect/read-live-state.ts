/**
 * Reading a branch's live state in sequential waves: wave 1 reads the
 * project, the branch and its endpoints in parallel (the spec's waves 1 and 2, merged); wave 2
 * reads, in parallel, only the features the policy needs; the engine's optional wave 3 lists
 * objects of buckets a plan would delete (`readBucketsHaveObjects`).
 */
import type { ApiBranch, ApiEndpoint } from "../api/wire-types.js";
import type { LiveSlices } from "../kinds/index.js";
import type { PlatformApi } from "../api/platform-api.js";
import { bucketHasObjects, databaseServesDataApi } from "../api/guard-reads.js";
import type { BranchTarget } from "../model/desired-state.js";
import { ErrorCode, PlatformError, isPlatformError } from "../errors/index.js";
import type { LiveState } from "../model/live-state.js";
import {
  branchTargetOf,
  compareCodePoints,
  normalizeProject,
} from "./normalize.js";
import type { ReadNeeds } from "./read-needs.js";
import { normalizeBranch } from "../kinds/branch/read.js";
import { normalizeAuth } from "../kinds/auth/read.js";
import { normalizeBuckets } from "../kinds/bucket/read.js";
import { normalizeFunctions } from "../kinds/function/read.js";
import { normalizeTriggers } from "../kinds/trigger/read.js";
import { normalizeDataApi } from "../kinds/dataApi/read.js";
import { normalizeDatabaseOwners } from "../kinds/database/read.js";
import { normalizeRoles } from "../kinds/role/read.js";
import { normalizeCompute } from "../kinds/compute/read.js";
import { normalizeCustomDomains } from "../kinds/domain/read.js";

/** What every operation reads first: enough to evaluate the branch closure. */
export interface BaseLiveState {
  project: LiveState["project"];
  branch: LiveState["branch"];
  compute: LiveState["compute"];
  /** The branch's endpoints as listed (the kinds built on them read their own, e.g. read replicas). */
  endpoints: readonly ApiEndpoint[];
  /** The closure's input for this existing branch. */
  target: BranchTarget;
}

/**
 * A kind's read of its own slice of the live state (`live.kinds`), run in wave 2 beside the other
 * feature reads: from what wave 1 read (`base.endpoints`) or through `api`. Returns `{ <kind>: … }`.
 */
export type KindLiveRead = (input: { api: PlatformApi; ref: { projectId: string; branchId: string }; base: BaseLiveState }) => Promise<LiveSlices>;

/** A feature the platform does not offer here; its field reads as "none". */
export interface UnavailableFeature {
  /** The live-state field, e.g. `functions`. */
  field: keyof LiveState;
  /** The platform's explanation. */
  message: string;
}

/** The live state plus the features that turned out to be unavailable. */
export interface LiveStateReadResult {
  state: LiveState;
  /** Reads that failed with `PLATFORM_FEATURE_UNAVAILABLE` (the field was set to none). */
  unavailable: UnavailableFeature[];
}

/** Identifies the branch to read. */
export interface ReadBaseStateOptions {
  api: PlatformApi;
  projectId: string;
  branchId: string;
}

/** Options of {@link readLiveState}. */
export interface ReadLiveStateOptions extends ReadBaseStateOptions {
  /** The feature reads, fixed or derived from the branch (e.g. via the resolved policy). */
  needs: ReadNeeds | ((target: BranchTarget) => ReadNeeds);
}

/**
 * Reads the whole live state in two waves (base, then the needed features).
 * A missing branch throws `PLATFORM_BRANCH_NOT_FOUND` listing the available branches.
 */
export async function readLiveState(options: ReadLiveStateOptions): Promise<LiveStateReadResult> {
  const base = await readBaseState(options);
  const needs = typeof options.needs === "function" ? options.needs(base.target) : options.needs;
  return readFeatureState({ api: options.api, projectId: options.projectId, base, needs });
}

/** Wave 1: project, branch and endpoints in parallel. */
export async function readBaseState(options: ReadBaseStateOptions): Promise<BaseLiveState> {
  const { api, projectId, branchId } = options;
  const ref = { projectId, branchId };
  const [project, branch, endpoints] = await Promise.allSettled([api.getProject({ projectId }), api.getBranch(ref), api.listEndpoints(ref)]);
  const liveProject = normalizeProject(settledValue(project));
  if (branch.status === "rejected" && isPlatformError(branch.reason, ErrorCode.NOT_FOUND)) {
    throw await branchNotFound(api, projectId, branchId, branch.reason);
  }
  const liveBranch = normalizeBranch(settledValue(branch));
  const listed = settledValue(endpoints);
  return {
    project: liveProject,
    branch: liveBranch,
    compute: normalizeCompute(listed),
    endpoints: listed,
    target: Object.freeze(branchTargetOf(liveBranch)),
  };
}

/** Wave 2: the feature reads `needs` asks for and the reads of `kinds`, in parallel. */
export async function readFeatureState(options: {
  api: PlatformApi;
  projectId: string;
  base: BaseLiveState;
  needs: ReadNeeds;
  /** The reads of the kinds that read their own slice. @default none */
  kinds?: readonly KindLiveRead[];
}): Promise<LiveStateReadResult> {
  const { api, projectId, base, needs } = options;
  const ref = { projectId, branchId: base.branch.id };
  const unavailable: UnavailableFeature[] = [];
  const orNone = async <T>(field: keyof LiveState, read: Promise<T>, none: T): Promise<T> => {
    try {
      return await read;
    } catch (err) {
      if (!isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) throw err;
      unavailable.push({ field, message: err.message });
      return none;
    }
  };
  const skip = Promise.resolve(undefined);
  const parentId = base.branch.parentId;
  const [databases, auth, dataApi, buckets, functions, triggers, customDomains, parentFunctions, roles, parentRolesDatabases, kindSlices] = await Promise.all([
    needs.databases ? api.listDatabases(ref) : skip,
    needs.auth ? orNone("auth", api.getAuth(ref), null) : skip,
    needs.dataApiDatabase === null ? skip : orNone("dataApi", api.getDataApi({ ...ref, databaseName: needs.dataApiDatabase }), null),
    needs.buckets ? orNone("buckets", api.listBuckets(ref), []) : skip,
    needs.functions ? orNone("functions", api.listFunctions(ref), []) : skip,
    needs.triggers ? orNone("triggers", api.listTriggers(ref), []) : skip,
    needs.customDomains ? orNone("customDomains", api.listCustomDomains(ref), []) : skip,
    needs.parentFunctions && parentId !== undefined
      ? orNone("parentFunctionSlugs", api.listFunctions({ projectId, branchId: parentId }), [])
      : skip,
    needs.roles ? api.listRoles(ref) : skip,
    needs.parentRolesDatabases && parentId !== undefined ? readRoleAndDatabaseNames(api, { projectId, branchId: parentId }) : skip,
    Promise.all((options.kinds ?? []).map((read) => read({ api, ref, base }))),
  ]);
  const kinds: LiveSlices = Object.assign({}, ...kindSlices);
  const state: LiveState = {
    project: base.project,
    branch: base.branch,
    compute: base.compute,
    ...(databases === undefined ? {} : { databases: databases.map((d) => d.name).sort(compareCodePoints) }),
    ...(auth === undefined ? {} : { auth: normalizeAuth(auth) }),
    ...(needs.dataApiDatabase === null || dataApi === undefined ? {} : { dataApi: normalizeDataApi(needs.dataApiDatabase, dataApi) }),
    ...(buckets === undefined ? {} : { buckets: normalizeBuckets(buckets) }),
    ...(functions === undefined ? {} : { functions: normalizeFunctions(functions) }),
    ...(triggers === undefined ? {} : { triggers: normalizeTriggers(triggers) }),
    ...(customDomains === undefined ? {} : { customDomains: normalizeCustomDomains(customDomains) }),
    ...(needs.parentFunctions ? { parentFunctionSlugs: (parentFunctions ?? []).map((f) => f.slug).sort(compareCodePoints) } : {}),
    ...(roles === undefined ? {} : { roles: normalizeRoles(roles), databaseOwners: normalizeDatabaseOwners(databases ?? []) }),
    ...(needs.parentRolesDatabases ? { parentRoles: parentRolesDatabases?.roles ?? [], parentDatabases: parentRolesDatabases?.databases ?? [] } : {}),
    ...(Object.keys(kinds).length === 0 ? {} : { kinds }),
  };
  return { state, unavailable };
}

/** The role and database names of a branch (the parent's, for inherited detection), sorted. */
async function readRoleAndDatabaseNames(api: PlatformApi, ref: { projectId: string; branchId: string }): Promise<{ roles: string[]; databases: string[] }> {
  const [roles, databases] = await Promise.all([api.listRoles(ref), api.listDatabases(ref)]);
  return { roles: roles.map((r) => r.name).sort(compareCodePoints), databases: databases.map((d) => d.name).sort(compareCodePoints) };
}

/**
 * Wave 3 (engine only): whether each named bucket holds at least one object, read with
 * `limit=1` in parallel.
 */
export async function readBucketsHaveObjects(options: {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  buckets: readonly string[];
}): Promise<ReadonlyMap<string, boolean>> {
  const { api, projectId, branchId } = options;
  const entries = await Promise.all(options.buckets.map(async (bucket) => [bucket, await bucketHasObjects(api, { projectId, branchId, bucket })] as const));
  return new Map(entries);
}

/**
 * Wave 3 (engine only): which of the named databases serve a Data API, read in parallel; a
 * region without the Data API answers none.
 */
export async function readDataApiDatabases(options: {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  databases: readonly string[];
}): Promise<string[]> {
  const { api, projectId, branchId } = options;
  const served = await Promise.all(options.databases.map((database) => databaseServesDataApi(api, { projectId, branchId, databaseName: database })));
  return options.databases.filter((_, i) => served[i]).sort(compareCodePoints);
}

/** Lists the project's branches and builds the `PLATFORM_BRANCH_NOT_FOUND` error for `branchId`. */
export async function branchNotFound(api: PlatformApi, projectId: string, branchId: string, cause?: unknown): Promise<PlatformError> {
  const branches: ApiBranch[] = await api.listBranches({ projectId }).catch(() => []);
  return branchNotFoundError({ projectId, branchId, branches, cause });
}

/**
 * The `PLATFORM_BRANCH_NOT_FOUND` error for `branchId`, listing the project's branches as
 * `name (id)` (a name passed instead of an id is the usual cause).
 */
export function branchNotFoundError(options: {
  projectId: string;
  branchId: string;
  branches: readonly ApiBranch[];
  cause?: unknown;
}): PlatformError {
  const { projectId, branchId, branches, cause } = options;
  const available = branches.map((b) => ({ name: b.name, id: b.id })).sort((a, b) => compareCodePoints(a.name, b.name));
  const byName = available.find((b) => b.name === branchId);
  const hint = byName === undefined ? "Pass a branch id (br-…), not a name." : `"${branchId}" is a branch name; its id is ${byName.id}.`;
  const list = available.length === 0 ? "none" : available.map((b) => `${b.name} (${b.id})`).join(", ");
  return new PlatformError(
    ErrorCode.BRANCH_NOT_FOUND,
    `Branch ${branchId} does not exist in project ${projectId}. ${hint} Available branches: ${list}.`,
    { details: { projectId, branchId, available }, ...(cause === undefined ? {} : { cause }) },
  );
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "fulfilled") return result.value;
  throw result.reason;
}
