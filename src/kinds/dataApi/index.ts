/** The Data API kind as the registry holds it: its diff and its handlers. */
import { applyDataApiCreate, applyDataApiDelete, applyDataApiUpdate } from "../../apply/handlers/data-api.js";
import { diffDataApi } from "../../diff/services.js";
import type { KindModule } from "../module.js";

/** The branch's Data API (`dataApi`). */
export const dataApiKind: KindModule<"dataApi"> = {
  name: "dataApi",
  diff: (desired, live, _options, sink) => diffDataApi(desired, live, sink),
  handlers: {
    "data-api-create": applyDataApiCreate,
    "data-api-update": applyDataApiUpdate,
    "data-api-delete": (ctx, _change, op) => applyDataApiDelete(ctx, op),
  },
};
