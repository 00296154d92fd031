/** The compute kind's stages: its diff and its handler. */
import { endpointSettingsOf } from "./wire.js";
import type { KindStages } from "../module.js";
import { normalizeCompute } from "./read.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyComputeUpdate, computeCreate } from "./apply.js";
import { diffCompute } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const computeStages: KindStages<"compute"> = {
  // No source of its own: its endpoint from those wave 1 listed (written here: read.ts is imported by inspect/normalize.ts).
  read: { slice: (_records, base) => ({ compute: normalizeCompute(base.endpoints) }) },
  compared: (live) => ({ compute: live.compute }),
  diff: (desired, live, _options, sink) => diffCompute(desired, live, sink),
  create: computeCreate,
  handlers: { "compute-update": applyComputeUpdate },
  expectedWaits: { "compute-update": () => OPERATION_WAIT_MS },
  digests: { "compute-update": (planned) => planned },
  seed: (live) => ({ branch: { endpoints: live.compute === null ? [] : [{ id: live.compute.endpointId, type: "read_write", ...endpointSettingsOf(live.compute) }] } }),
};
