import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createFingerprinter, parseFingerprintKey } from "../../../src/engine/function-fingerprint.js";
import { apply, createPlatformApi, defineConfig, plan, type EngineEvent } from "../../../src/v1.js";

const KEY_A = "a1".repeat(32);
const KEY_B = Buffer.alloc(32, 7).toString("base64");
let emu: RunningEmulator;
let dir: string;

beforeEach(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 } });
  dir = mkdtempSync(join(tmpdir(), "svc-fingerprints-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('hi');\n");
});
afterEach(async () => emu.close());

const options = (fingerprintKey?: string) => ({
  projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: dir,
  polling: { initialMs: 10, maxMs: 40 }, updateExisting: true, ...(fingerprintKey === undefined ? {} : { fingerprintKey }),
});
const policy = (token: string) =>
  defineConfig({
    functions: {
      alpha: { name: "Alpha", source: "./fn", bundler: "none", env: { APP_DATABASE: "postgres://u:pw@db/app", TOKEN: token } },
      beta: { name: "Beta", source: "./fn", bundler: "none", env: { APP_DATABASE: "postgres://u:pw@db/app", TOKEN: "fixed" } },
    },
  });

describe.each([
  ["hardened (no key)", undefined, ["env"]],
  ["keyed", KEY_A, ["env.TOKEN"]],
])("function fingerprints, %s", (_mode, key, valueFields) => {
  it("plans a converged branch clean and a re-apply deploys nothing", async () => {
    const first = await apply(policy("t1"), options(key));
    expect(first.applied.map((a) => a.id)).toEqual(["create:function.alpha", "create:function.beta"]);
    expect((await plan(policy("t1"), options(key))).changes).toEqual([]);
    const again = await apply(policy("t1"), options(key));
    expect(again.applied).toEqual([]);
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const ref = { projectId: emu.projectId, branchId: emu.defaultBranchId };
    const deployments = await Promise.all(["alpha", "beta"].map(async (slug) => (await api.getFunction({ ...ref, slug })).current_deployment?.id));
    expect(deployments).toEqual([1, 1]);
  });

  it("deploys an env-only change without the archive (keyed: naming the variable), then plans clean", async () => {
    await apply(policy("t1"), options(key));
    const planned = await plan(policy("t2"), options(key));
    expect(planned.changes.map((c) => [c.id, c.fields])).toEqual([["update:function.alpha", valueFields]]);
    const applied = await apply(policy("t2"), options(key));
    expect(applied.applied.map((a) => [a.id, a.details?.zipUploaded])).toEqual([["update:function.alpha", false]]);
    expect((await plan(policy("t2"), options(key))).changes).toEqual([]);
  });

  it("plans a code edit as a code change only: the untouched env is not reported", async () => {
    await apply(policy("t1"), options(key));
    writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('hi again');\n");
    const planned = await plan(policy("t1"), options(key));
    expect(planned.changes.map((c) => [c.id, c.fields, c.reason])).toEqual([
      ["update:function.alpha", ["code"], "the function's code changed"],
      ["update:function.beta", ["code"], "the function's code changed"],
    ]);
  });

  it("reads a marker an older svc-config wrote: plans clean, and the next env edit replaces it with the new markers", async () => {
    const bundles = new Map<string, string>();
    await apply(policy("t1"), { ...options(key), onEvent: (e: EngineEvent) => (e.type === "bundle" && e.phase === "done" && e.zipSha256 !== undefined ? void bundles.set(e.slug, e.zipSha256) : undefined) });
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const ref = { projectId: emu.projectId, branchId: emu.defaultBranchId };
    const fingerprints = createFingerprinter(emu.projectId, key === undefined ? undefined : parseFingerprintKey(key));
    for (const [slug, token] of [["alpha", "t1"], ["beta", "fixed"]] as const) {
      const env = { APP_DATABASE: "postgres://u:pw@db/app", TOKEN: token };
      const tag = await fingerprints.tag({ slug, zipSha256: bundles.get(slug) ?? "", runtime: "nodejs24", env });
      const older = `SVC_FINGERPRINT_${tag.codeTag}_${tag.legacyConfigTag}`;
      const current = (await api.getFunction({ ...ref, slug })).current_deployment?.environment ?? [];
      const swapped = Object.fromEntries([...current.filter((n) => n.startsWith("SVC_FINGERPRINT_")).map((n) => [n, ""]), [older, "1"]]);
      await api.createDeployment({ ...ref, slug, runtime: "nodejs24", environment: swapped });
      await expect.poll(async () => (await api.getFunction({ ...ref, slug })).current_deployment?.status).toBe("completed");
    }
    expect((await plan(policy("t1"), options(key))).changes).toEqual([]);
    const edited = await apply(policy("t2"), options(key));
    expect(edited.applied.map((a) => [a.id, a.fields, a.details?.zipUploaded])).toEqual([["update:function.alpha", ["env"], false]]);
    const names = (await api.getFunction({ ...ref, slug: "alpha" })).current_deployment?.environment ?? [];
    expect(names.filter((n) => n.startsWith("SVC_FINGERPRINT_")).every((n) => /^SVC_FINGERPRINT_(?:[0-9A-F]+_E[KH]|V)/.test(n))).toBe(true);
    expect((await plan(policy("t2"), options(key))).changes).toEqual([]);
  });
});

describe("changing the fingerprint key", () => {
  it.each([
    ["from one key to another", KEY_A, KEY_B],
    ["from hardened to keyed", undefined, KEY_B],
    ["from keyed to hardened", KEY_A, undefined],
  ])("%s redeploys each function once, env-only", async (_label, before, after) => {
    await apply(policy("t1"), options(before));
    const planned = await plan(policy("t1"), options(after));
    expect(planned.changes.map((c) => [c.id, c.fields])).toEqual([["update:function.alpha", ["env"]], ["update:function.beta", ["env"]]]);
    const applied = await apply(policy("t1"), options(after));
    expect(applied.applied.map((a) => a.details?.zipUploaded)).toEqual([false, false]);
    expect((await apply(policy("t1"), options(after))).applied).toEqual([]);
  });
});

describe("hardened fingerprints", () => {
  it("derive each distinct env value once per process, used and reported only for functions whose decision depends on it, never showing a value", async () => {
    const events: EngineEvent[] = [];
    const onEvent = (e: EngineEvent) => events.push(e);
    await plan(policy("t1"), { ...options(), onEvent });
    expect(events.filter((e) => e.type === "fingerprints")).toEqual([]); // new functions: nothing to compare, no derivation used
    await apply(policy("t1"), options(KEY_A));
    const counts = async () => {
      events.length = 0;
      await plan(policy("t1"), { ...options(), onEvent });
      return events.flatMap((e) => (e.type === "fingerprints" ? [e.derivations] : []));
    };
    // Two functions, four env entries, three distinct values (the shared URL, "t1", "fixed").
    expect(await counts()).toEqual([3]);
    expect(await counts()).toEqual([]);
    expect(JSON.stringify(events)).not.toContain("pw@db");
  });
});
