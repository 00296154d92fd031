import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPlatformApi, type PlatformApi } from "../../../src/api/index.js";
import type { ApiOperation } from "../../../src/api/platform-api.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { rejection } from "../../unit/api/helpers.js";

let emu: RunningEmulator;
let ticks: number;

beforeEach(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 60 } });
  ticks = 0;
});
afterEach(async () => emu.close());

/** A client on the emulator whose watcher's ticks are counted. */
function countingClient(operationMs = 20_000): PlatformApi {
  return createPlatformApi({
    apiKey: emu.apiKey,
    apiHost: emu.apiHost,
    polling: { initialMs: 10, maxMs: 40 },
    timeouts: { operationMs },
    sleep: async (ms) => {
      ticks += 1;
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
}

/** Operation requests the emulator served, as `METHOD path`. */
function operationRequests(): string[] {
  return emu.state
    .requests()
    .filter((r) => r.path.includes("/operations"))
    .map((r) => `${r.method} ${r.path}`);
}

/** `count` system operations of the seeded project, pending for `ms` each, as the client sees them. */
function pendingSystemOperations(count: number, ms: number): ApiOperation[] {
  return Array.from({ length: count }, (_, i) => {
    const op = emu.state.lockProject(emu.projectId, ms + i * 10);
    return { id: op.id, action: op.action, status: op.status };
  });
}

describe("one operations watcher per project", () => {
  it("waits for 12 pending operations with one list request per tick, however many are pending", async () => {
    const api = countingClient();
    const operations = pendingSystemOperations(12, 80);

    const finals = await Promise.all(operations.map((op) => api.waitForOperations({ projectId: emu.projectId, operations: [op] })));

    expect(finals.flat().map((op) => op.status)).toEqual(operations.map(() => "finished"));
    const requests = operationRequests();
    expect(requests).toEqual(requests.map(() => `GET /api/v2/projects/${emu.projectId}/operations`));
    expect(requests.length).toBe(ticks);
    expect(ticks).toBeGreaterThan(1);
  });

  it("fails only the wait whose operation failed; the others end finished", async () => {
    const api = countingClient();
    emu.state.faults.set([{ kind: "opfail", action: "apply_config" }]);
    const [endpoint] = await api.listEndpoints({ projectId: emu.projectId, branchId: emu.defaultBranchId });
    if (endpoint === undefined) throw new Error("the seeded branch has no endpoint");
    const update = await api.updateEndpoint({ projectId: emu.projectId, endpointId: endpoint.id, endpoint: { suspend_timeout_seconds: 600 } });
    const others = pendingSystemOperations(3, 40);

    const [failed, ...rest] = await Promise.allSettled([
      api.waitForOperations({ projectId: emu.projectId, operations: update.operations }),
      ...others.map((op) => api.waitForOperations({ projectId: emu.projectId, operations: [op] })),
    ]);

    expect(failed?.status).toBe("rejected");
    const err = failed?.status === "rejected" ? (failed.reason as { message: string; details: Record<string, unknown> }) : undefined;
    expect(err?.details).toMatchObject({ operationId: update.operations[0]?.id, action: "apply_config", status: "failed" });
    expect(err?.message).toContain("injected operation failure");
    expect(rest.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
  });

  it("gives up on an operation that outlasts operationMs, naming it, while a shorter one still finishes", async () => {
    const api = countingClient(300);
    const [short] = pendingSystemOperations(1, 30);
    const slow = emu.state.lockProject(emu.projectId, 5_000, "tenant_attach");

    const [shortWait, slowWait] = await Promise.allSettled([
      api.waitForOperations({ projectId: emu.projectId, operations: short === undefined ? [] : [short] }),
      rejection(api.waitForOperations({ projectId: emu.projectId, operations: [{ id: slow.id, action: slow.action, status: slow.status }] })),
    ]);

    expect(shortWait.status).toBe("fulfilled");
    const err = slowWait.status === "fulfilled" ? slowWait.value : undefined;
    expect(err?.code).toBe("PLATFORM_TIMEOUT");
    expect(err?.message).toContain(slow.id);
    expect(err?.message).toContain("tenant_attach");
  });
});
