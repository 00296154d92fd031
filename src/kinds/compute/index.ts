/** The compute kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { ComputeLiveFields, ComputeOperations } from "./fields.js";
import type { KindLight } from "../module.js";
import { computePull } from "./pull.js";

/** The branch's read-write compute endpoint (`compute`). */
export const computeKind: KindLight<"compute"> = {
  name: "compute",
  scope: "branch",
  pull: computePull,
  stages: async () => (await import("./stages.js")).computeStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's read-write compute. */
    compute: { scope: "branch"; operations: ComputeOperations; liveFields: ComputeLiveFields };
  }
}
