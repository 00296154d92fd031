/** The Data API record → the live state's Data API: the Data API kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiDataApi } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import { DEFAULT_SERVICE_DATABASE } from "../../inspect/read-needs.js";
import { DATA_API_SETTINGS, type LiveDataApi } from "./fields.js";

/** The Data API of `database`, enabled or not. */
export function normalizeDataApi(database: string, dataApi: ApiDataApi | null): LiveDataApi {
  if (dataApi === null) return { enabled: false, database, settings: null };
  return { enabled: true, database, settings: dataApi.settings === null ? null : fromWire(DATA_API_SETTINGS, dataApi.settings) };
}

/**
 * The Data API kind's read, when the policy manages it: the Data API of its database (the
 * default one when disabled) and the databases; auth for the built-in provider; the roles for a
 * declared anonymous role (checked against the branch's roles).
 */
export const dataApiRead: KindRead<LiveContributionOf<"dataApi">> = {
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
