/**
 * Read replicas end to end against the emulator over real HTTP: planned, refused without
 * updateExisting when one is removed, applied, planned clean again, pulled back into a policy
 * that plans clean, and verified on a replica of the branch.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { startEmulator, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { apply, defineConfig, isPlatformError, plan, pullConfig, renderPolicySource, resolvePolicy } from "../../../src/v1.js";
import { createTempTree } from "../../helpers/temp-dir.js";

const TIMINGS = { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 0, deployBuildMs: 5, domainActivationMs: 0 };
const POLLING = { initialMs: 5, maxMs: 20 };
/** A branch with a read-write compute and four read-only endpoints: reports, legacy, manual and an unnamed one. */
const SEED = JSON.parse(readFileSync(new URL("../../../fixtures/read-replicas/live.json", import.meta.url), "utf8")) as SeedDocument;

const POLICY = defineConfig({
  branch: () => ({
    readReplicas: { analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 }, search: {}, reports: { suspendTimeout: "10m" }, legacy: false },
  }),
});

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<{ emu: RunningEmulator; options: { projectId: string; branchId: string; apiKey: string; apiHost: string; polling: typeof POLLING } }> {
  const emu = await startEmulator({ seed: SEED, timings: TIMINGS, log: "off" });
  emulator = emu;
  return { emu, options: { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING } };
}

/** The branch's read-only endpoints as the platform reports them: name → [min, max, suspend timeout]. */
async function readOnlyEndpoints(options: Awaited<ReturnType<typeof start>>["options"]): Promise<Record<string, number[]>> {
  const endpoints = await createPlatformApi(options).listEndpoints(options);
  return Object.fromEntries(
    endpoints.filter((e) => e.type === "read_only").map((e) => [e.name ?? e.id, [e.autoscaling_limit_min_cu, e.autoscaling_limit_max_cu, e.suspend_timeout_seconds]]),
  );
}

describe("read replicas on the emulator", () => {
  it("creates two, resizes one and removes one only with updateExisting, then plans clean", async () => {
    const { options } = await start();
    const planned = await plan(POLICY, options);
    expect(Object.fromEntries(planned.changes.map((c) => [c.id, c.class]))).toEqual({
      "create:readReplica.analytics": "additive",
      "create:readReplica.search": "additive",
      "update:readReplica.reports": "override",
      "delete:readReplica.legacy": "override",
    });
    expect(planned.unmanaged.map((u) => u.address).sort()).toEqual(["readReplica.ep-unnamed-000004", "readReplica.manual"]);

    const refused = await apply(POLICY, options).catch((err: unknown) => err);
    expect(isPlatformError(refused, "PLATFORM_PUSH_CONFLICT")).toBe(true);
    expect(Object.keys(await readOnlyEndpoints(options)).sort()).toEqual(["ep-unnamed-000004", "legacy", "manual", "reports"]);

    await apply(POLICY, { ...options, updateExisting: true });
    expect(await readOnlyEndpoints(options)).toEqual({
      reports: [0.25, 1, 600],
      manual: [0.25, 1, 0],
      "ep-unnamed-000004": [0.25, 1, 0],
      analytics: [1, 4, 0],
      search: expect.any(Array),
    });
    const again = await plan(POLICY, options);
    expect([again.changes, again.conflicts]).toEqual([[], []]);
  });

  it("pulls the named replicas into an svc.ts that loads and plans clean, leaving the unnamed one unmanaged", async () => {
    const { options } = await start();
    await apply(POLICY, { ...options, updateExisting: true });
    const tree = createTempTree({ ".git/": "", "svc.ts": renderPolicySource(await pullConfig(options)) });
    try {
      const { config } = await loadConfigFromFile({ cwd: tree.root });
      const resolved = resolvePolicy(config, { name: "main", exists: true, isDefault: true });
      expect(resolved.kinds?.readReplica?.replicas.map((r) => r.name)).toEqual(["analytics", "manual", "reports", "search"]);
      expect(resolved.kinds?.readReplica?.replicas.find((r) => r.name === "reports")?.settings.suspendTimeoutSeconds).toBe(600);
      const again = await plan(config, options);
      expect([again.changes, again.conflicts]).toEqual([[], []]);
      expect(again.unmanaged.map((u) => u.address)).toEqual(["readReplica.ep-unnamed-000004"]);
    } finally {
      tree.remove();
    }
  });


  it("verifies the plan on a replica of the branch, which has the read-only endpoints the plan read", async () => {
    const { emu, options } = await start();
    const before = emu.state.requests(1000).length;
    const verified = await plan(POLICY, { ...options, verify: true });
    expect(verified.verification).toMatchObject({ verified: true, residual: [], failures: [] });
    expect(new Set(emu.state.requests(1000).slice(before).map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  it("a target narrows the plan to the replica at that address", async () => {
    const { options } = await start();
    const targeted = await plan(POLICY, { ...options, targets: ["readReplica.reports"] });
    expect(targeted.changes.map((c) => c.id)).toEqual(["update:readReplica.reports"]);
  });

  it("lowering a count removes the counted replicas above it", async () => {
    const { options } = await start();
    const three = defineConfig({ branch: () => ({ readReplicas: 3 }) });
    await apply(three, { ...options, updateExisting: true });
    const one = defineConfig({ branch: () => ({ readReplicas: 1 }) });
    const result = await apply(one, { ...options, updateExisting: true });
    expect(result.changes.map((c) => c.id)).toEqual(["delete:readReplica.replica-2", "delete:readReplica.replica-3"]);
    expect(Object.keys(await readOnlyEndpoints(options)).filter((n) => n.startsWith("replica-"))).toEqual(["replica-1"]);
  });
});
