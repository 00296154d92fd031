import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { apply, createPlatformApi, defineConfig, plan, type EngineEvent } from "../../../src/v1.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 } });
});
afterAll(async () => emu.close());

describe("read events", () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const config = defineConfig({ auth: true, buckets: { uploads: { access: "private" } } });
  const ids = () => ({ projectId: emu.projectId, branchId: emu.defaultBranchId });

  it.each([
    { client: "the client the engine builds", options: () => ({ apiKey: emu.apiKey, apiHost: emu.apiHost }) },
    { client: "an injected createPlatformApi client", options: () => ({ api: createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost }) }) },
  ])("reports every read of a plan with its wave, request, status, duration and request id through $client", async ({ options }) => {
    const events: EngineEvent[] = [];
    await plan(config, { ...ids(), ...options(), onEvent: (e) => events.push(e) });
    const reads = events.flatMap((e) => (e.type === "read" ? [e] : []));
    const branch = `/projects/${emu.projectId}/branches/${emu.defaultBranchId}`;
    expect(reads.map((r) => [r.wave, r.request, r.status]).sort()).toEqual([
      [1, `GET /projects/${emu.projectId}`, 200],
      [1, `GET ${branch}`, 200],
      [1, `GET ${branch}/endpoints`, 200],
      [2, `GET ${branch}/auth`, 404],
      [2, `GET ${branch}/buckets`, 200],
      [2, `GET ${branch}/databases`, 200],
    ].sort());
    for (const r of reads) {
      expect(r.requestId).toMatch(UUID);
      expect(r.ms).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    { client: "the client the engine builds", options: () => ({ apiKey: emu.apiKey, apiHost: emu.apiHost }) },
    { client: "an injected createPlatformApi client", options: () => ({ api: createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost }) }) },
  ])("reports a retried read once as a retry event through $client", async ({ options }) => {
    emu.state.faults.once({ kind: "status", status: 503, methods: ["GET"], path: `/api/v2/projects/${emu.projectId}` });
    const events: EngineEvent[] = [];
    await plan(config, { ...ids(), ...options(), onEvent: (e) => events.push(e) });
    const retries = events.filter((e) => e.type === "retry");
    expect(retries).toEqual([expect.objectContaining({ method: "GET", path: `/projects/${emu.projectId}`, attempt: 1, status: 503, requestId: expect.stringMatching(UUID) })]);
    expect(events).toContainEqual(expect.objectContaining({ type: "read", wave: 1, request: `GET /projects/${emu.projectId}`, status: 200 }));
  });
});

describe("plan and apply against the emulator", () => {
  it("plans every kind on a fresh branch, applies and re-plans clean", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-engine-"));
    mkdirSync(join(dir, "fn"));
    writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('hi');\n");
    const config = defineConfig({
      auth: true,
      dataApi: { settings: { dbSchemas: ["public"] } },
      buckets: { uploads: { access: "private" } },
      functions: { hello: { name: "Hello", source: "./fn", bundler: "none", env: { GREETING: "hi" }, customDomains: ["hello.example.com"] } },
      triggers: { hourly: { type: "schedule", function: "hello", cron: "0 * * * *" } },
      branch: () => ({ protected: true, postgres: { computeSettings: { autoscalingLimitMaxCu: 4 } } }),
    });
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: dir, polling: { initialMs: 20, maxMs: 50 } };
    const first = await plan(config, options);
    expect(first.changes.map((c) => c.id)).toEqual([
      "update:branch", "update:compute", "create:auth", "create:dataApi",
      "create:bucket.uploads", "create:function.hello", "create:trigger.hourly", "create:domain.hello.example.com",
    ]);
    const events: EngineEvent[] = [];
    const applied = await apply(config, { ...options, updateExisting: true, onEvent: (e) => events.push(e) });
    expect(applied.failed).toEqual([]);
    expect(applied.customDomains).toEqual([{ domain: "hello.example.com", slug: "hello", cnameTarget: expect.any(String) }]);
    expect(applied.applied.find((a) => a.id === "create:function.hello")?.details).toMatchObject({ zipUploaded: true, deploymentId: 1 });
    const types = new Set(events.map((e) => e.type));
    for (const type of ["read", "bundle", "plan", "change", "wait"]) expect(types).toContain(type);
    expect(events.filter((e) => e.type === "change" && e.phase === "done")).toHaveLength(8);
    expect(JSON.stringify({ events, applied })).not.toContain('"hi"');
    const second = await plan(config, options);
    expect(second.changes).toEqual([]);
    expect(second.conflicts).toEqual([]);
  });
});

describe("a custom bundleFunction", () => {
  it("replaces the bundler for every declared function, bundling them at once before the first change, in plan and apply alike", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-engine-bundle-"));
    const slugs = ["alpha", "beta", "gamma"];
    for (const slug of slugs) mkdirSync(join(dir, slug));
    const config = defineConfig({ functions: Object.fromEntries(slugs.map((slug) => [slug, { name: slug, source: `./${slug}` }])) });
    const calls: string[] = [];
    // Each bundle waits until all of them have started: sequential bundling would never get past
    // the first (the test times out), so finishing proves they ran at once.
    let started!: () => void;
    let allStarted = new Promise<void>((resolve) => (started = resolve));
    const bundleFunction = async (fn: { slug: string }): Promise<Uint8Array> => {
      calls.push(fn.slug);
      if (calls.length === slugs.length) started();
      await allStarted;
      const zip = new JSZip();
      zip.file("index.mjs", `export default () => new Response(${JSON.stringify(fn.slug)});\n`);
      return zip.generateAsync({ type: "uint8array" });
    };
    const client = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: { initialMs: 20, maxMs: 50 } });
    const branch = await client.createBranch({ projectId: emu.projectId, branch: { name: "custom-bundler" } });
    await client.waitForOperations({ projectId: emu.projectId, operations: branch.operations });
    const options = { projectId: emu.projectId, branchId: branch.branch.id, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: dir, bundleFunction, polling: { initialMs: 20, maxMs: 50 } };

    const planned = await plan(config, options);
    expect(calls.sort()).toEqual(slugs);
    expect(planned.changes.map((c) => c.id)).toEqual(slugs.map((s) => `create:function.${s}`));

    calls.length = 0;
    allStarted = new Promise<void>((resolve) => (started = resolve));
    const events: EngineEvent[] = [];
    const applied = await apply(config, { ...options, onEvent: (e) => events.push(e) });
    expect(calls.sort()).toEqual(slugs);
    const lastBundle = events.findLastIndex((e) => e.type === "bundle" && e.phase === "done");
    const firstChange = events.findIndex((e) => e.type === "change");
    expect(lastBundle).toBeGreaterThanOrEqual(0);
    expect(lastBundle).toBeLessThan(firstChange);
    expect(applied.applied.map((a) => a.id).sort()).toEqual(slugs.map((s) => `create:function.${s}`));
    expect((await plan(config, options)).changes).toEqual([]);
  });
});
