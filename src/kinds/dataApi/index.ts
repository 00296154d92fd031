/** The Data API kind as the registry holds it: its diff and its handlers. */
import { type DataApiOperations, DATA_API_SETTINGS } from "./fields.js";
import { toWire } from "../../model/kinds/field.js";
import { applyDataApiCreate, applyDataApiDelete, applyDataApiUpdate } from "./apply.js";
import { diffDataApi } from "./diff.js";
import { dataApiPull } from "./pull.js";
import type { KindModule } from "../module.js";

/** The branch's Data API (`dataApi`). */
export const dataApiKind: KindModule<"dataApi"> = {
  name: "dataApi",
  scope: "branch",
  diff: (desired, live, _options, sink) => diffDataApi(desired, live, sink),
  pull: dataApiPull,
  handlers: {
    "data-api-create": (ctx, _change, op, planned) => applyDataApiCreate(ctx, op, planned),
    "data-api-update": (ctx, _change, op, planned) => applyDataApiUpdate(ctx, op, planned),
    "data-api-delete": (ctx, _change, op) => applyDataApiDelete(ctx, op),
  },
  // An update's op held the patch in wire names.
  digests: { "data-api-update": (planned) => ({ settings: toWire(DATA_API_SETTINGS, planned) }) },
  seed: (live) => ({
    branch: { data_api: live.dataApi?.enabled === true ? [{ database: live.dataApi.database, settings: live.dataApi.settings && toWire(DATA_API_SETTINGS, live.dataApi.settings) }] : [] },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the Data API. */
    dataApi: { scope: "branch"; operations: DataApiOperations };
  }
}
