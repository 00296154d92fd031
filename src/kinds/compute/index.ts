/** The compute kind as the registry holds it: its diff and its handler. */
import type { KindModule } from "../module.js";
import { applyComputeUpdate } from "./apply.js";
import { diffCompute } from "./diff.js";

/** The branch's read-write compute endpoint (`compute`). */
export const computeKind: KindModule<"compute"> = {
  name: "compute",
  diff: (desired, live, _options, sink) => diffCompute(desired, live, sink),
  handlers: { "compute-update": applyComputeUpdate },
};
