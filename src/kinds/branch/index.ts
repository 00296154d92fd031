/** The branch-settings kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import { kindTuning } from "../../config/schemas/branch-tuning.js";
import type { BranchOperations, BranchResolvedSettings } from "./fields.js";
import type { KindLight } from "../module.js";
import { type BranchSettingsDef, branchSettingsShape } from "./policy.js";
import { branchPull } from "./pull.js";

/** The branch's own settings (protection, expiry, name). */
export const branchKind: KindLight<"branch"> = {
  name: "branch",
  scope: "branch",
  // `protected` as stated, `ttl` in seconds (`null`: no expiry), on the branch's settings of the resolved policy.
  tuning: kindTuning(branchSettingsShape, (values) => ({
    branch: {
      ...(values.protected === undefined ? {} : { protected: values.protected }),
      ...(values.ttl === undefined ? {} : { ttlSeconds: values.ttl }),
    },
  })),
  pull: branchPull,
  stages: async () => (await import("./stages.js")).branchStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's own settings. */
    branch: { scope: "branch"; operations: BranchOperations; tuning: BranchSettingsDef; resolvedBranch: BranchResolvedSettings };
  }
}
