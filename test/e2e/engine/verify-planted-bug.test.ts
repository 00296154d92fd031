import { afterEach, expect, it, vi } from "vitest";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { defineConfig, plan } from "../../../src/v1.js";

// A planted engine bug: the compute handler sends one second more suspend timeout than planned.
const isComputeUpdate = (change: PlannedChange): change is Extract<PlannedChange, { op: { type: "compute-update" } }> => change.op.type === "compute-update";
vi.mock("../../../src/apply/handlers/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/apply/handlers/index.js")>();
  return {
    ...original,
    applyChange: (ctx: Parameters<typeof original.applyChange>[0], change: PlannedChange) => {
      if (!isComputeUpdate(change) || change.planned.suspendTimeoutSeconds === undefined) return original.applyChange(ctx, change);
      return original.applyChange(ctx, { ...change, planned: { ...change.planned, suspendTimeoutSeconds: change.planned.suspendTimeoutSeconds + 1 } });
    },
  };
});

let emu: RunningEmulator | undefined;
afterEach(async () => emu?.close());

it("verification catches a handler that sends a wrong value: the re-plan on the replica still shows the change", async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 } });
  const config = defineConfig({ buckets: { files: { access: "private" } }, branch: () => ({ postgres: { computeSettings: { suspendTimeout: "10m" } } }) });
  const result = await plan(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, verify: true });
  expect(result.changes.map((c) => c.id)).toEqual(["update:compute", "create:bucket.files"]);
  expect(result.verification).toMatchObject({ verified: false, failures: [] });
  expect(result.verification?.residual).toEqual([expect.objectContaining({ id: "update:compute", fields: ["suspendTimeout"], before: expect.objectContaining({ suspendTimeout: 601 }), after: expect.objectContaining({ suspendTimeout: 600 }) })]);
});
