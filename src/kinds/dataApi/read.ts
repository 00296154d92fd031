/** The Data API record → the live state's Data API. Pure. */
import type { ApiDataApi } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import { DATA_API_SETTINGS } from "./fields.js";

/** The Data API of `database`, enabled or not. */
export function normalizeDataApi(database: string, dataApi: ApiDataApi | null): NonNullable<LiveState["dataApi"]> {
  if (dataApi === null) return { enabled: false, database, settings: null };
  return { enabled: true, database, settings: dataApi.settings === null ? null : fromWire(DATA_API_SETTINGS, dataApi.settings) };
}
