/** The Data API record → the live state's Data API: the Data API kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiDataApi, ApiDatabase } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { DEFAULT_SERVICE_DATABASE } from "../../model/desired-state.js";
import { DATA_API_SETTINGS, type LiveDataApi } from "./fields.js";

/** The Data API of `database`, enabled or not. */
export function normalizeDataApi(database: string, dataApi: ApiDataApi | null): LiveDataApi {
  if (dataApi === null) return { enabled: false, database, settings: null };
  return { enabled: true, database, settings: dataApi.settings === null ? null : fromWire(DATA_API_SETTINGS, dataApi.settings) };
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

/**
 * The Data API kind's read, when the policy manages it: the Data API of its database (the
 * default one when disabled) and the databases; auth for the built-in provider; the roles for a
 * declared anonymous role (checked against the branch's roles).
 */
export const dataApiRead: KindRead<LiveContributionOf<"dataApi">> = {
  // A pull reads the databases and auth, then the Data API of the first candidate that has one.
  pull: { needs: { databases: true, auth: true }, next: ({ databases, auth }) => ({ firstDataApi: dataApiDatabases(databases ?? [], auth?.db_name) }) },
  needs: ({ dataApi }) => {
    if (dataApi.state === "unmanaged") return {};
    if (dataApi.state !== "enabled") return { databases: true, dataApi: DEFAULT_SERVICE_DATABASE };
    return {
      databases: true,
      dataApi: dataApi.database,
      ...(dataApi.authProvider === "builtin" ? { auth: true } : {}),
      ...(dataApi.settings.dbAnonRole === undefined ? {} : { roles: true }),
    };
  },
  slice: ({ dataApi }) => (dataApi === undefined ? {} : { dataApi: normalizeDataApi(dataApi.database, dataApi.dataApi) }),
};
