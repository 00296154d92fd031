/** The Data API kind's stages: its diff and its handlers. */
import { DATA_API_SETTINGS } from "./fields.js";
import { toWire } from "../../model/kinds/field.js";
import { applyDataApiCreate, applyDataApiDelete, applyDataApiUpdate } from "./apply.js";
import { diffDataApi } from "./diff.js";
import type { KindStages } from "../module.js";
import { dataApiRead } from "./read.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const dataApiStages: KindStages<"dataApi"> = {
  read: dataApiRead,
  // In wire names, as the fingerprint has always hashed them: saved plans stay comparable.
  compared: ({ dataApi }) => ({ dataApi: dataApi === undefined ? undefined : { ...dataApi, settings: dataApi.settings === null ? null : toWire(DATA_API_SETTINGS, dataApi.settings) } }),
  diff: (desired, live, _options, sink) => diffDataApi(desired, live, sink),
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
