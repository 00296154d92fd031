import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApi, type PlatformApi } from "../../src/api/index.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { readLiveState } from "../../src/inspect/read-live-state.js";
import { allFeatureReads } from "../helpers/read-needs.js";
import { KIND_READS } from "../../src/kinds/modules.js";
import { plan, pullConfig, type EngineEvent } from "../../src/v1.js";

const POLLING = { initialMs: 20, maxMs: 50 };
let emu: RunningEmulator;
let api: PlatformApi;
let branchId: string;

/** Counts sequential request waves: a request's wave is one more than the last finished before it started. */
function waveCountingFetch(): { fetch: typeof fetch; waves: () => number } {
  let finished = 0;
  let max = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const wave = finished + 1;
    max = Math.max(max, wave);
    try {
      return await fetch(input, init);
    } finally {
      finished = Math.max(finished, wave);
    }
  };
  return { fetch: wrapped, waves: () => max };
}

/** What `call` rejects with; fails the test if it resolves. */
async function failure(call: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await call;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected the call to fail");
}

async function helloZip(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default { fetch: () => new Response('hi') };\n");
  return zip.generateAsync({ type: "uint8array" });
}

beforeAll(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 } });
  api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
  const projectId = emu.projectId;
  const created = await api.createBranch({
    projectId,
    branch: { name: "preview/pr-7", parent_id: emu.defaultBranchId, protected: true },
    endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2, suspend_timeout_seconds: 3600 }],
  });
  branchId = created.branch.id;
  await api.waitForOperations({ projectId, operations: created.operations });
  const ref = { projectId, branchId };
  await api.createAuth({ ...ref, databaseName: "neondb" });
  await api.createDataApi({ ...ref, databaseName: "neondb", auth_provider: "neon_auth", settings: { db_schemas: ["public"], db_max_rows: 100 } });
  await api.createBucket({ ...ref, name: "uploads", access_level: "private" });
  await api.createDeployment({ ...ref, slug: "hello", zip: await helloZip(), runtime: "nodejs24", environment: { GREETING: "hi" } });
  await emu.settle();
  await api.createTrigger({ ...ref, trigger: { type: "schedule", function_slug: "hello", name: "hourly", schedule: { cron: "0 * * * *" } } });
  await api.createCustomDomain({ ...ref, domain: "hello.example.com", entity_id: "hello" });
  await api.createCredential({ ...ref, scopes: ["storage:read"], name: "ci" });
  await emu.settle();
});
afterAll(async () => emu.close());

describe("inspecting a branch on the emulator", () => {
  it("pulls the branch as a policy with a secret-free preview", async () => {
    const pulled = await pullConfig({ projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost });

    expect(pulled.branch).toMatchObject({ id: branchId, name: "preview/pr-7", parent: "main", isDefault: false, protected: true });
    expect(pulled.config.auth).toBe(true);
    expect(pulled.config.dataApi).toMatchObject({ settings: { dbSchemas: ["public"], dbMaxRows: 100 } });
    expect(pulled.preview?.buckets).toEqual([{ name: "uploads", access: "private" }]);
    expect(pulled.preview?.functions).toEqual([{ slug: "hello", name: "hello" }]);
    expect(pulled.preview?.credentials.map((c) => c.name)).toEqual(["ci"]);
    expect(JSON.stringify(pulled)).not.toMatch(/nt_live_|nsk_live_/);
  });

  it("plans the pulled policy clean against the same branch", async () => {
    const options = { projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING };
    const pulled = await pullConfig(options);

    const result = await plan(pulled.config, options);

    expect(result.changes).toEqual([]);
    expect(result.conflicts).toEqual([]);
  });

  it("reads a branch with every resource kind in at most 3 waves", async () => {
    const counting = waveCountingFetch();
    const countingApi = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, fetch: counting.fetch });

    const { state } = await readLiveState({ api: countingApi, projectId: emu.projectId, branchId, needs: allFeatureReads(), kinds: KIND_READS });

    expect(state.functions?.map((f) => f.slug)).toEqual(["hello"]);
    expect(state.functions?.[0]?.envNames).toEqual(["GREETING"]);
    expect(state.triggers?.map((t) => t.name)).toEqual(["hourly"]);
    expect(state.customDomains?.map((d) => d.domain)).toEqual(["hello.example.com"]);
    expect(state.compute).toMatchObject({ minCu: 0.5, maxCu: 2, suspendTimeoutSeconds: 3600 });
    expect(counting.waves()).toBeLessThanOrEqual(3);
  });

  it("reports the reads of pullConfig as read events in waves 1 to 3", async () => {
    const events: EngineEvent[] = [];
    await pullConfig({ projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, onEvent: (e) => events.push(e) });

    const reads = events.flatMap((e) => (e.type === "read" ? [e] : []));
    expect(reads.filter((r) => r.wave === 1).map((r) => r.request)).toEqual([`GET /projects/${emu.projectId}`]);
    expect(reads.filter((r) => r.wave === 2)).toHaveLength(10);
    expect(reads.filter((r) => r.wave === 3).map((r) => [r.request, r.status])).toEqual([[expect.stringMatching(/\/data-api\/neondb$/), expect.any(Number)]]);
  });

  it("rejects a branch name passed as the id, listing name (id) of every branch", async () => {
    const err = await failure(pullConfig({ projectId: emu.projectId, branchId: "preview/pr-7", apiKey: emu.apiKey, apiHost: emu.apiHost }));

    expect(err.code).toBe("PLATFORM_BRANCH_NOT_FOUND");
    expect(err.message).toContain(`main (${emu.defaultBranchId})`);
    expect(err.message).toContain(`preview/pr-7 (${branchId})`);
  });
});

describe("the client against the emulator", () => {
  it("waits out a project lock by retrying the 423 answers", async () => {
    const retries: number[] = [];
    const client = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING, onEvent: (e) => retries.push(e.status ?? 0) });
    emu.state.lockProject(emu.projectId, 250);

    const updated = await client.updateBranch({ projectId: emu.projectId, branchId, branch: { protected: true } });

    expect(updated.branch.protected).toBe(true);
    expect(retries.length).toBeGreaterThan(0);
    expect(new Set(retries)).toEqual(new Set([423]));
  });

  it("retries a 503 on a mutation and reports the same request id", async () => {
    const events: { status?: number; requestId: string }[] = [];
    const client = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, onEvent: (e) => events.push(e) });
    emu.state.faults.once({ kind: "status", status: 503, methods: ["POST"], path: "/api/v2/projects/*/branches/*/buckets" });

    await client.createBucket({ projectId: emu.projectId, branchId, name: "retried" });

    expect(events.map((e) => e.status)).toEqual([503]);
    const logged = emu.state.requests(5).filter((r) => JSON.stringify(r).includes("/buckets"));
    expect(logged.length).toBeGreaterThanOrEqual(2);
  });

  it("never resends a POST whose connection was reset", async () => {
    const client = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    emu.state.faults.once({ kind: "reset", methods: ["POST"], path: "/api/v2/projects/*/branches/*/buckets" });

    const err = await failure(client.createBucket({ projectId: emu.projectId, branchId, name: "maybe" }));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(err.message).toMatch(/request id [0-9a-f-]{36}/);
  });
});
