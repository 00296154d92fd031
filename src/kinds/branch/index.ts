/** The branch-settings kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { BranchOperations } from "./fields.js";
import type { KindLight } from "../module.js";
import { branchPull } from "./pull.js";

/** The branch's own settings (protection, expiry, name). */
export const branchKind: KindLight<"branch"> = {
  name: "branch",
  scope: "branch",
  pull: branchPull,
  stages: async () => (await import("./stages.js")).branchStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's own settings. */
    branch: { scope: "branch"; operations: BranchOperations };
  }
}
