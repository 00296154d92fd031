/** The compute kind as the registry holds it: its diff and its handler. */
import type { ComputeOperations } from "./fields.js";
import { endpointSettingsOf } from "./wire.js";
import { computePull } from "./pull.js";
import type { KindModule } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyComputeUpdate } from "./apply.js";
import { diffCompute } from "./diff.js";

/** The branch's read-write compute endpoint (`compute`). */
export const computeKind: KindModule<"compute"> = {
  name: "compute",
  scope: "branch",
  diff: (desired, live, _options, sink) => diffCompute(desired, live, sink),
  pull: computePull,
  handlers: { "compute-update": applyComputeUpdate },
  expectedWaits: { "compute-update": () => OPERATION_WAIT_MS },
  digests: { "compute-update": (planned) => planned },
  seed: (live) => ({ branch: { endpoints: live.compute === null ? [] : [{ id: live.compute.endpointId, type: "read_write", ...endpointSettingsOf(live.compute) }] } }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's read-write compute. */
    compute: { scope: "branch"; operations: ComputeOperations };
  }
}
