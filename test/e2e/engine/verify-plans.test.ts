import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { startEmulator, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { createFingerprinter } from "../../../src/engine/function-fingerprint.js";
import { prepareRuntime } from "../../../src/engine/options.js";
import { preparePlan } from "../../../src/engine/prepare-plan.js";
import { executionContext, resolverFor } from "../../../src/engine/push-config.js";
import { verifyPrepared } from "../../../src/engine/verify-plan.js";
import { apply, defineConfig, plan, toSavedPlan } from "../../../src/v1.js";
import { discoverScenarios, type Scenario } from "../../helpers/engine-scenarios.js";

const TIMINGS = { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 0, deployBuildMs: 5, domainActivationMs: 0 };
const POLLING = { initialMs: 5, maxMs: 20 };

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(scenario: Scenario): Promise<{ emu: RunningEmulator; options: { projectId: string; branchId: string; apiKey: string; apiHost: string; polling: typeof POLLING } }> {
  const emu = await startEmulator({ seed: scenario.seed as SeedDocument, timings: TIMINGS });
  emulator = emu;
  const options = { projectId: emu.projectId, branchId: scenario.spec.branchId ?? emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING };
  if (scenario.spec.setup !== undefined) {
    const setup = await loadConfigFromFile({ path: join(scenario.dir, scenario.spec.setup) });
    await apply(setup.config, { ...options, updateExisting: true });
  }
  return { emu, options };
}

/** Methods the platform saw since `from` (the request log holds paths without queries). */
function methodsSince(emu: RunningEmulator, from: number): string[] {
  return emu.state.requests(1000).slice(from).map((r) => r.method);
}

describe.each(discoverScenarios())("verified plan of scenario $name", (scenario) => {
  // A scenario's corruptZip simulates a platform-side build failure of a good archive; the
  // replica builds the real archive, so the verdict is compared with a real apply without it.
  it("matches what really applying the plan does, and sends the platform nothing but the plan's reads", async () => {
    const { emu, options } = await start(scenario);
    const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
    const allowDataLoss = scenario.spec.apply?.allowDataLoss ?? false;
    const before = emu.state.requests(1000).length;
    const result = await plan(config, { ...options, allowDataLoss, verify: true });
    expect(new Set(methodsSince(emu, before))).toEqual(new Set(["GET"]));
    const verification = result.verification;
    if (verification === undefined) throw new Error("no verification");
    expect(toSavedPlan(result).verification).toEqual(verification);

    let converged: boolean;
    try {
      await apply(config, { ...options, updateExisting: true, allowDataLoss });
      const again = await plan(config, { ...options, allowDataLoss });
      converged = again.changes.length === 0 && again.conflicts.length === 0;
    } catch {
      converged = false;
    }
    // A hostname registered elsewhere in the account is not something a plan reads: such
    // changes are listed as unchecked, and only they may make the verdict differ.
    if (verification.verified !== converged) expect(verification.unchecked.length).toBeGreaterThan(0);
    else expect(verification.verified).toBe(converged);
    if (verification.verified) expect({ residual: verification.residual, failures: verification.failures }).toEqual({ residual: [], failures: [] });
    else expect(verification.failures.length + verification.residual.length).toBeGreaterThan(0);
  });
});

describe("archives the platform would reject fail verification as the real build would", () => {
  async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
    const zip = new JSZip();
    for (const [name, text] of Object.entries(files)) zip.file(name, text);
    return zip.generateAsync({ type: "uint8array" });
  }

  it.each<{ case: string; files: Record<string, string>; message: string }>([
    { case: "no entry file", files: { "lib/helper.mjs": "export const x = 1;\n" }, message: "no index.mjs or index.js at the archive root" },
    { case: "an unsafe entry name", files: { "index.mjs": "export default () => 1;\n", "../escape.mjs": "x" }, message: "is unsafe" },
  ])("$case", async ({ files, message }) => {
    const emu = await startEmulator({ timings: TIMINGS });
    emulator = emu;
    const config = defineConfig({ functions: { api: { name: "API", source: "./fn", bundler: "none" } }, triggers: { tick: { type: "schedule", function: "api", cron: "0 * * * *" } } });
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING };
    const rt = prepareRuntime("plan", options);
    const dir = mkdtempSync(join(tmpdir(), "svc-verify-"));
    mkdirSync(join(dir, "fn"));
    writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
    const bad = await zipOf(files);
    const prepared = await preparePlan(rt, {
      ids: { projectId: emu.projectId, branchId: emu.defaultBranchId },
      resolveDesired: resolverFor(config, { baseDir: dir }),
      allowDataLoss: false,
      now: () => new Date(),
    });
    const archive = prepared.archives.get("api");
    if (archive === undefined) throw new Error("no archive");
    const planted = { ...prepared, archives: new Map([["api", { ...archive, bytes: { kind: "held" as const, zip: bad } }]]) };
    const verification = await verifyPrepared(rt, planted, { contextFor: executionContext, allowDataLoss: false });
    expect(verification.verified).toBe(false);
    expect(verification.failures[0]).toMatchObject({ changeId: "create:function.api", message: expect.stringContaining(message) });
    expect(verification.failures[1]).toMatchObject({ changeId: "create:trigger.tick", code: "SKIPPED" });
  });
});

describe("a verification fingerprints nothing with the plan's fingerprinter", () => {
  it.each([
    { mode: "keyed", key: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", computed: 0 },
    // Hardened: the plan defers a new function's env tag; the replica's apply and re-plan use a
    // replica fingerprinter's tags for it, so no value is derived with scrypt for the replica.
    { mode: "hardened", key: undefined, computed: 0 },
  ])("$mode: $computed fingerprints computed during the verification of a new function", async ({ key, computed }) => {
    const emu = await startEmulator({ timings: TIMINGS });
    emulator = emu;
    const config = defineConfig({ functions: { api: { name: "API", source: "./fn", bundler: "none", env: { MODE: "live" } } } });
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING, ...(key === undefined ? {} : { fingerprintKey: key }) };
    const rt = prepareRuntime("plan", options);
    const dir = mkdtempSync(join(tmpdir(), "svc-verify-"));
    mkdirSync(join(dir, "fn"));
    writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
    const prepared = await preparePlan(rt, { ids: { projectId: emu.projectId, branchId: emu.defaultBranchId }, resolveDesired: resolverFor(config, { baseDir: dir }), allowDataLoss: false, now: () => new Date() });
    let tags = 0;
    const counted = { ...rt, fingerprints: { ...rt.fingerprints, tag: (input: Parameters<typeof rt.fingerprints.tag>[0]) => ((tags += 1), rt.fingerprints.tag(input)) } };
    const verification = await verifyPrepared(counted, prepared, { contextFor: executionContext, allowDataLoss: false });
    expect({ verified: verification.verified, residual: verification.residual, tags }).toEqual({ verified: true, residual: [], tags: computed });
  });
});

describe("hardened mode: a plan that redeploys a marked function and creates a new one", () => {
  it("verifies with the plan's tag for the first and a replica tag for the second, and a plan that would not converge is still reported", async () => {
    const emu = await startEmulator({ timings: TIMINGS });
    emulator = emu;
    const dir = mkdtempSync(join(tmpdir(), "svc-verify-"));
    mkdirSync(join(dir, "fn"));
    writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING, baseDir: dir };
    const fn = (mode: string) => ({ name: "API", source: "./fn", bundler: "none" as const, env: { MODE: mode } });
    await apply(defineConfig({ functions: { api: fn("live") } }), { ...options, updateExisting: true });
    const config = defineConfig({ functions: { api: fn("next"), jobs: fn("jobs") } });
    const rt = prepareRuntime("plan", options);
    const prepared = await preparePlan(rt, { ids: { projectId: emu.projectId, branchId: emu.defaultBranchId }, resolveDesired: resolverFor(config, { baseDir: dir }), allowDataLoss: false, dryRun: true, now: () => new Date() });
    // The marked function's env tag is the plan's (it decided the redeploy); the new one's is deferred.
    expect({ api: prepared.functionTags.get("api")?.envTag?.slice(0, 2), jobs: prepared.functionTags.get("jobs")?.envTag }).toEqual({ api: "EH", jobs: undefined });
    let tags = 0;
    const counted = { ...rt, fingerprints: { ...rt.fingerprints, tag: (input: Parameters<typeof rt.fingerprints.tag>[0]) => ((tags += 1), rt.fingerprints.tag(input)) } };
    // The replica's tag for the new function, as its apply wrote it, kept to look for it outside the replica.
    const jobs = { slug: "jobs", zipSha256: prepared.functionTags.get("jobs")?.zipSha256 ?? "", runtime: prepared.desired.functions[1]?.runtime ?? "", env: { MODE: "jobs" } };
    let replicaTag = "";
    const capturing: typeof executionContext = (replicaRt, plan) => {
      expect(replicaRt.fingerprints).not.toBe(counted.fingerprints);
      void replicaRt.fingerprints.tag(jobs).then((t) => (replicaTag = t.envTag));
      return executionContext(replicaRt, plan);
    };
    const verification = await verifyPrepared(counted, prepared, { contextFor: capturing, allowDataLoss: false });
    expect({ verified: verification.verified, residual: verification.residual, failures: verification.failures, tags }).toEqual({ verified: true, residual: [], failures: [], tags: 0 });
    expect(replicaTag).toMatch(/^EH[0-9A-F]{18}$/);

    // A planted bug: the new function deployed with the markers of another env. Reported.
    const wrongMarkers: typeof executionContext = (replicaRt, plan) => {
      const ctx = executionContext(replicaRt, plan);
      return { ...ctx, functionMarkers: (slug) => (slug === "jobs" ? replicaRt.fingerprints.tag({ ...jobs, env: { MODE: "other" } }).then((t) => t.markers) : ctx.functionMarkers(slug)) };
    };
    const planted = await verifyPrepared(rt, prepared, { contextFor: wrongMarkers, allowDataLoss: false });
    expect({ verified: planted.verified, residual: planted.residual.map((c) => [c.id, c.fields]) }).toEqual({ verified: false, residual: [["update:function.jobs", ["env"]]] });

    // Through the public plan and a real apply: the platform gets the scrypt-keyed tags, and no
    // replica tag appears in the plan's result or its saved form.
    const shown = await plan(config, { ...options, verify: true });
    expect(shown.verification).toMatchObject({ verified: true, residual: [], failures: [] });
    expect(JSON.stringify([shown, toSavedPlan(shown), verification, planted])).not.toContain(replicaTag.slice(2));
    await apply(config, { ...options, updateExisting: true });
    const after = await preparePlan(prepareRuntime("plan", options), { ids: { projectId: emu.projectId, branchId: emu.defaultBranchId }, resolveDesired: resolverFor(config, { baseDir: dir }), allowDataLoss: false, now: () => new Date() });
    const real = await createFingerprinter(emu.projectId).tag(jobs);
    expect(after.live.functions?.find((f) => f.slug === "jobs")?.markers).toEqual(real.markers);
    expect(real.envTag).not.toBe(replicaTag);
    expect(after.diff.changes).toEqual([]);
  });
});

describe("the replica's executor", () => {
  it("starts at the run's request ceiling, with nothing to adapt to: the replica answers in this process", async () => {
    const emu = await startEmulator({ timings: TIMINGS });
    emulator = emu;
    const config = defineConfig({ buckets: { media: { access: "private" } } });
    const rt = prepareRuntime("plan", { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING, concurrency: 2, maxConcurrency: 12 });
    const prepared = await preparePlan(rt, { ids: { projectId: emu.projectId, branchId: emu.defaultBranchId }, resolveDesired: resolverFor(config, {}), allowDataLoss: false, now: () => new Date() });
    const limits: { concurrency: number; maxConcurrency: number }[] = [];
    const contextFor: typeof executionContext = (replicaRt, plan) => {
      limits.push({ concurrency: replicaRt.concurrency, maxConcurrency: replicaRt.maxConcurrency });
      return executionContext(replicaRt, plan);
    };
    const verification = await verifyPrepared(rt, prepared, { contextFor, allowDataLoss: false });
    expect({ verified: verification.verified, limits }).toEqual({ verified: true, limits: [{ concurrency: 12, maxConcurrency: 12 }] });
  });
});
