/** The compute kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import { kindTuning } from "../../config/schemas/branch-tuning.js";
import { fromPolicy } from "../../model/kinds/field.js";
import { COMPUTE_SETTINGS, type ComputeLiveFields, type ComputeOperations, type ComputeResolvedSettings } from "./fields.js";
import type { KindLight } from "../module.js";
import { type ComputeTuning, computeTuningShape } from "./policy.js";
import { computePull } from "./pull.js";

/** The branch's read-write compute endpoint (`compute`). */
export const computeKind: KindLight<"compute"> = {
  name: "compute",
  scope: "branch",
  // The declared settings in model vocabulary, on the branch's settings of the resolved policy (none: not managed).
  tuning: kindTuning(computeTuningShape, (values) => {
    const compute = fromPolicy(COMPUTE_SETTINGS, values.postgres?.computeSettings);
    return { branch: Object.keys(compute).length === 0 ? {} : { compute } };
  }),
  pull: computePull,
  stages: async () => (await import("./stages.js")).computeStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's read-write compute. */
    compute: { scope: "branch"; operations: ComputeOperations; liveFields: ComputeLiveFields; tuning: ComputeTuning; resolvedBranch: ComputeResolvedSettings };
  }
}
