/** The Data API kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { DataApiOperations, DataApiLiveFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { dataApiPull } from "./pull.js";
import { type DataApiPolicyKeys, type DataApiResolvedFields, dataApiPolicy } from "./policy.js";

/** The branch's Data API (`dataApi`). */
export const dataApiKind: KindLight<"dataApi"> = {
  name: "dataApi",
  scope: "branch",
  policy: dataApiPolicy,
  pull: dataApiPull,
  stages: async () => (await import("./stages.js")).dataApiStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the Data API. */
    dataApi: { scope: "branch"; operations: DataApiOperations; liveFields: DataApiLiveFields; resolvedFields: DataApiResolvedFields; policy: { keys: DataApiPolicyKeys } };
  }
}
