/**
 * The platform reads of waves 2 and 3, as one table of sources: each source is one kind of API
 * read (a listing, a record, the parent branch's listings, the delete guards' reads of named
 * items), made at most once per wave however many kinds need it. The kinds say which sources they
 * need (`ReadNeeds`) and build their part of the live state from the records read; this table
 * knows no kind.
 */
import type { ApiAuthIntegration, ApiBucket, ApiCredential, ApiCustomDomain, ApiDataApi, ApiDatabase, ApiFunction, ApiRole, ApiTrigger } from "../api/wire-types.js";
import type { BranchRef, PlatformApi } from "../api/platform-api.js";
import { bucketHasObjects, databaseServesDataApi } from "../api/guard-reads.js";
import { ErrorCode, isPlatformError } from "../errors/index.js";
import { compareCodePoints } from "./normalize.js";

/** What a source's read is given: the API, the branch read and its parent (none for a root branch). */
interface SourceContext {
  api: PlatformApi;
  ref: BranchRef;
  parent: BranchRef | undefined;
}

/** One platform read: `Need` is what a kind asks for (`true`, or a parameter such as a database name). */
interface ReadSource<Need, Records> {
  read(context: SourceContext, need: Need): Promise<Records>;
  /** What stands for "none" when the platform answers feature-unavailable (then reported); absent: the error propagates. */
  readonly unavailable?: { readonly feature: string; none(need: Need): Records };
}

function source<Need, Records>(definition: ReadSource<Need, Records>): ReadSource<Need, Records> {
  return definition;
}

/** A Data API as read: the database it was read on and its record (`null`: not enabled there). */
export interface DataApiRecords {
  database: string;
  dataApi: ApiDataApi | null;
}

/** A Data API that is enabled and the database it was read on. */
export interface FirstDataApiRecords {
  database: string;
  record: ApiDataApi;
}

/** The parent branch's roles and databases (both empty for a branch without a parent). */
export interface ParentRoleDatabaseRecords {
  roles: ApiRole[];
  databases: ApiDatabase[];
}

/** The sources, by name. A parent source reads nothing when the branch has no parent and answers none. */
const READ_SOURCES = {
  databases: source<true, ApiDatabase[]>({ read: ({ api, ref }) => api.listDatabases(ref) }),
  roles: source<true, ApiRole[]>({ read: ({ api, ref }) => api.listRoles(ref) }),
  auth: source<true, ApiAuthIntegration | null>({ read: ({ api, ref }) => api.getAuth(ref), unavailable: { feature: "auth", none: () => null } }),
  /** The need is the database whose Data API is read. */
  dataApi: source<string, DataApiRecords>({
    read: async ({ api, ref }, database) => ({ database, dataApi: await api.getDataApi({ ...ref, databaseName: database }) }),
    unavailable: { feature: "dataApi", none: (database) => ({ database, dataApi: null }) },
  }),
  /**
   * The first of the named databases (in the order given) that has a Data API, with its record;
   * none when none has one. A database whose read answers feature-unavailable has none.
   */
  firstDataApi: source<readonly string[], FirstDataApiRecords | null>({
    read: async ({ api, ref }, databases) => {
      const found = await Promise.all(databases.map((database) => noneIfUnavailable(api.getDataApi({ ...ref, databaseName: database }))));
      const index = found.findIndex((record) => record !== null);
      const [database, record] = [databases[index], found[index]];
      return database === undefined || record === undefined || record === null ? null : { database, record };
    },
  }),
  buckets: source<true, ApiBucket[]>({ read: ({ api, ref }) => api.listBuckets(ref), unavailable: { feature: "buckets", none: () => [] } }),
  functions: source<true, ApiFunction[]>({ read: ({ api, ref }) => api.listFunctions(ref), unavailable: { feature: "functions", none: () => [] } }),
  triggers: source<true, ApiTrigger[]>({ read: ({ api, ref }) => api.listTriggers(ref), unavailable: { feature: "triggers", none: () => [] } }),
  customDomains: source<true, ApiCustomDomain[]>({ read: ({ api, ref }) => api.listCustomDomains(ref), unavailable: { feature: "customDomains", none: () => [] } }),
  /** The branch's API credentials (metadata; a pull lists them). */
  credentials: source<true, ApiCredential[]>({ read: ({ api, ref }) => api.listCredentials(ref), unavailable: { feature: "credentials", none: () => [] } }),
  parentFunctions: source<true, ApiFunction[]>({
    read: async ({ api, parent }) => (parent === undefined ? [] : api.listFunctions(parent)),
    unavailable: { feature: "parentFunctions", none: () => [] },
  }),
  parentRolesDatabases: source<true, ParentRoleDatabaseRecords>({
    read: async ({ api, parent }) => {
      if (parent === undefined) return { roles: [], databases: [] };
      const [roles, databases] = await Promise.all([api.listRoles(parent), api.listDatabases(parent)]);
      return { roles, databases };
    },
  }),
  // The delete guards' reads (wave 3), one request per item named by the need.
  /** Whether each named bucket holds at least one object. */
  bucketObjects: source<readonly string[], ReadonlyMap<string, boolean>>({
    read: async ({ api, ref }, buckets) => new Map(await Promise.all(buckets.map(async (bucket) => [bucket, await bucketHasObjects(api, { ...ref, bucket })] as const))),
  }),
  /** Which of the named databases serve a Data API, sorted (a region without the Data API answers none). */
  dataApiServed: source<readonly string[], string[]>({
    read: async ({ api, ref }, databases) => {
      const served = await Promise.all(databases.map((database) => databaseServesDataApi(api, { ...ref, databaseName: database })));
      return databases.filter((_, i) => served[i]).sort(compareCodePoints);
    },
  }),
};

type Sources = typeof READ_SOURCES;

/** The name of a read source. */
export type ReadSourceName = keyof Sources;

type NeedOf<S extends ReadSourceName> = Sources[S] extends ReadSource<infer N, unknown> ? N : never;
type RecordsOf<S extends ReadSourceName> = Sources[S] extends ReadSource<unknown, infer R> ? R : never;

/** The sources a plan reads in wave 2, each with its need; a source absent is not read (no request). */
export type ReadNeeds = { readonly [S in ReadSourceName]?: NeedOf<S> };

/** The records of the sources read; a source absent was not read. */
export type SourceRecords = { [S in ReadSourceName]?: RecordsOf<S> };

/** A source whose read answered feature-unavailable: it read as none. */
export interface UnavailableFeature {
  /** The feature that is not offered (`buckets`, `functions`, `auth`, …). */
  field: string;
  /** The platform's explanation. */
  message: string;
}

/** The source names in table order. */
export const READ_SOURCE_NAMES = Object.keys(READ_SOURCES) as ReadSourceName[];

/** Reads every source of `needs` in parallel, once each; a feature the platform lacks reads as its none and is reported. */
export async function readSources(context: SourceContext, needs: ReadNeeds): Promise<{ records: SourceRecords; unavailable: UnavailableFeature[] }> {
  const unavailable: UnavailableFeature[] = [];
  const records: SourceRecords = {};
  await Promise.all(READ_SOURCE_NAMES.map(async (name) => {
    const need = needs[name];
    if (need === undefined) return;
    const read = await readOne(READ_SOURCES[name] as ReadSource<typeof need, unknown>, context, need, unavailable);
    Object.assign(records, { [name]: read });
  }));
  return { records, unavailable };
}

async function noneIfUnavailable<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) return null;
    throw err;
  }
}

async function readOne<N, R>(definition: ReadSource<N, R>, context: SourceContext, need: N, unavailable: UnavailableFeature[]): Promise<R> {
  try {
    return await definition.read(context, need);
  } catch (err) {
    if (definition.unavailable === undefined || !isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) throw err;
    unavailable.push({ field: definition.unavailable.feature, message: err.message });
    return definition.unavailable.none(need);
  }
}
