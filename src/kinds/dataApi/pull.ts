/** The Data API in a pulled config. Pure. */
import type { ApiDataApi } from "../../api/wire-types.js";
import type { DataApiDef, DataApiSettingsDef } from "./policy.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import { DEFAULT_SERVICE_DATABASE } from "../../model/desired-state.js";
import { fromWire } from "../../model/kinds/field.js";
import { DATA_API_SETTINGS } from "./fields.js";

/** `dataApi` as a pull declares it: `true`, or its database, settings and auth provider where they differ from the defaults. */
export function pulledDataApi(dataApi: { database: string; record: ApiDataApi }, hasAuth: boolean): boolean | DataApiDef {
  const settings = dataApi.record.settings === null ? {} : pulledSettings(dataApi.record.settings);
  const common = {
    ...(dataApi.database === DEFAULT_SERVICE_DATABASE ? {} : { database: dataApi.database }),
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
  };
  // Without an auth integration the built-in provider would require `auth`; the wiring of an
  // external provider is not reported, so only its kind is pulled.
  if (!hasAuth) return { ...common, authProvider: "external" };
  return Object.keys(common).length === 0 ? true : common;
}

/** Wire settings → policy settings: the pulled fields of the descriptor whose values follow their rule. */
export function pulledSettings(wire: Record<string, unknown>): DataApiSettingsDef {
  return fromWire(DATA_API_SETTINGS.filter((field) => field.pulled), wire);
}

/** `dataApi` when the branch has one (its provider follows the branch's auth integration); its settings render through the descriptor. */
export const dataApiPull: KindPull = {
  policy: (records) => (records.dataApi === null ? {} : { dataApi: pulledDataApi(records.dataApi, records.auth !== null) }),
  described: { "dataApi.settings": DATA_API_SETTINGS },
};
