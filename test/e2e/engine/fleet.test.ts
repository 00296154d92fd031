import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PlatformApi } from "../../../src/api/platform-api.js";
import { startEmulator, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { applyFleet, createPlatformApi, defineConfig, planFleet } from "../../../src/v1.js";
import { createTempTree } from "../../helpers/temp-dir.js";

const KEY = "svc_fleet_test_key_000000000001";
const branch = (name: string, extra: object = {}) => ({ name, endpoints: [{ type: "read_write" as const }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...extra });
const SEED: SeedDocument = {
  version: 1,
  users: [{ email: "fleet@example.test", plan: "scale", api_keys: [{ name: "k", key: KEY, admin: true }] }],
  projects: [{ owner: "fleet@example.test", name: "fleet", branches: [branch("main", { default: true }), branch("preview/a", { parent: "main" }), branch("preview/b", { parent: "main" }), branch("preview/broken", { parent: "main" }), branch("staging", { parent: "main" })] }],
};

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startEmulator({ seed: SEED, apiKey: KEY, timings: { opSchedulingMs: 0, opRunMs: 2, deployPendingMs: 0, deployBuildMs: 2, domainActivationMs: 0 } });
});
afterEach(async () => emu.close());

/** Each branch evaluates the closure with its own input; one branch's closure throws. */
const config = defineConfig({
  buckets: { shared: { access: "private" } },
  branch: (t) => {
    if (t.name === "preview/broken") throw new Error("this branch's closure fails");
    return t.isDefault ? { protected: true } : { postgres: { computeSettings: { suspendTimeout: "5m" } } };
  },
});

/** Counts the most requests in flight at once through the adapter. */
function counting(api: PlatformApi): { api: PlatformApi; peak: () => number } {
  let inFlight = 0;
  let peak = 0;
  const wrapped = new Proxy(api, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          inFlight -= 1;
        }
      };
    },
  });
  return { api: wrapped, peak: () => peak };
}

describe("planFleet / applyFleet", () => {
  it("plans each matching branch with its own closure input; a failing branch is reported and the others still plan", async () => {
    const fleet = await planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "preview/*" });
    expect(fleet.branches.map((b) => b.branchName)).toEqual(["preview/a", "preview/b", "preview/broken"]);
    for (const name of ["preview/a", "preview/b"]) {
      const outcome = fleet.branches.find((b) => b.branchName === name);
      expect(outcome?.error).toBeUndefined();
      expect(outcome?.result?.changes.map((c) => c.id)).toEqual(["update:compute", "create:bucket.shared"]);
    }
    const broken = fleet.branches.find((b) => b.branchName === "preview/broken");
    expect(broken?.result).toBeUndefined();
    expect(broken?.error?.message).toContain("this branch's closure fails");
    const all = await planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "all" });
    expect(all.branches.find((b) => b.branchName === "main")?.result?.changes.map((c) => c.id)).toEqual(["update:branch", "create:bucket.shared"]);
    expect(all.branches).toHaveLength(5);
  });

  it("verifies every branch on replicas it reseeds from branch to branch, each verdict from that branch's own state", async () => {
    const api = createPlatformApi({ apiKey: KEY, apiHost: emu.apiHost });
    const branches = await api.listBranches({ projectId: emu.projectId });
    const idOf = (name: string) => branches.find((b) => b.name === name)?.id ?? "";
    await api.createBucket({ projectId: emu.projectId, branchId: idOf("preview/a"), name: "shared", access_level: "private" });
    const fleet = await planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "all", verify: true });
    const verdicts = fleet.branches.map((b) => [b.branchName, b.result?.changes.map((c) => c.id) ?? "error", b.result?.verification?.verified ?? "none", b.result?.verification?.failures ?? []]);
    expect(verdicts).toEqual([
      ["main", ["update:branch", "create:bucket.shared"], true, []],
      ["preview/a", ["update:compute"], true, []],
      ["preview/b", ["update:compute", "create:bucket.shared"], true, []],
      ["preview/broken", "error", "none", []],
      ["staging", ["update:compute", "create:bucket.shared"], true, []],
    ]);
    expect(fleet.branches.every((b) => b.result === undefined || b.result.verification?.residual.length === 0)).toBe(true);
  });

  it("shares one concurrency budget across every branch", async () => {
    const { api, peak } = counting(createPlatformApi({ apiKey: KEY, apiHost: emu.apiHost }));
    await planFleet(config, { projectId: emu.projectId, api, branches: "all", concurrency: 2 });
    expect(peak()).toBeLessThanOrEqual(2);
    const wide = counting(createPlatformApi({ apiKey: KEY, apiHost: emu.apiHost }));
    await planFleet(config, { projectId: emu.projectId, api: wide.api, branches: "all", concurrency: 16 });
    expect(wide.peak()).toBeGreaterThan(2);
  });

  it("applies to every branch it can, reports the rest, and a second fleet plan shows only what failed", async () => {
    const applied = await applyFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "all", updateExisting: true });
    expect(applied.branches.filter((b) => b.error !== undefined).map((b) => b.branchName)).toEqual(["preview/broken"]);
    const again = await planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "all" });
    expect(again.branches.map((b) => [b.branchName, b.result?.changes.length ?? "error"])).toEqual([
      ["main", 0], ["preview/a", 0], ["preview/b", 0], ["preview/broken", "error"], ["staging", 0],
    ]);
  });

  it("selects branches by id list too, and rejects a budget outside 1–64 before any request", async () => {
    const ids = (await createPlatformApi({ apiKey: KEY, apiHost: emu.apiHost }).listBranches({ projectId: emu.projectId })).filter((b) => b.name === "staging").map((b) => b.id);
    const fleet = await planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: ids });
    expect(fleet.branches.map((b) => b.branchName)).toEqual(["staging"]);
    await expect(planFleet(config, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, branches: "all", concurrency: 0 })).rejects.toThrow(/concurrency: must be an integer from 1 to 64/);
  });

  it("gives every branch each function's archive and bundler warnings, custom bundlers included, and converges", async () => {
    const tree = createTempTree({ "warn/index.ts": "export default () => Response.json({ a: 1, a: 2 });\n" });
    try {
      const policy = defineConfig({
        functions: {
          warn: { name: "Warn", source: "./warn" },
          own: { name: "Own", source: "./warn", bundler: async () => ({ "index.mjs": "export default () => new Response('own');\n" }) },
        },
      });
      const fleet = await planFleet(policy, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, baseDir: tree.root, branches: "preview/*" });
      expect(fleet.branches.map((b) => [b.branchName, b.error?.message ?? b.result?.changes.map((c) => c.id)])).toEqual([
        ["preview/a", ["create:function.own", "create:function.warn"]],
        ["preview/b", ["create:function.own", "create:function.warn"]],
        ["preview/broken", ["create:function.own", "create:function.warn"]],
      ]);
      for (const b of fleet.branches) {
        expect(b.result?.warnings.filter((w) => w.code === "BUNDLER").map((w) => w.message)).toEqual([expect.stringMatching(/^function warn: .*Duplicate key "a"/)]);
      }
      const applied = await applyFleet(policy, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, baseDir: tree.root, branches: "preview/*", updateExisting: true });
      expect(applied.branches.map((b) => b.result?.applied.length)).toEqual([2, 2, 2]);
      const again = await planFleet(policy, { projectId: emu.projectId, apiKey: KEY, apiHost: emu.apiHost, baseDir: tree.root, branches: "preview/*" });
      expect(again.branches.map((b) => b.result?.changes.length)).toEqual([0, 0, 0]);
    } finally {
      tree.remove();
    }
  });
});
