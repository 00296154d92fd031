/**
 * The CLI's apply of the plan it has just shown (`engine/shown-plan.ts`): the branch is read
 * again and the shown plan runs without evaluating the policy or bundling again; a branch that
 * changed after the plan was shown, in what the first or only the second read wave sees, is
 * refused as stale by the saved-plan check, and nothing is applied.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { withApiEvents } from "../../../src/engine/events.js";
import { prepareRuntime } from "../../../src/engine/options.js";
import { preparePlan } from "../../../src/engine/prepare-plan.js";
import { resolverFor } from "../../../src/engine/push-config.js";
import { applyShownPlan, planToShow } from "../../../src/engine/shown-plan.js";
import { readBaseState } from "../../../src/inspect/read-live-state.js";
import { createPlatformApi, defineConfig, isPlatformError, plan, type PushResult } from "../../../src/v1.js";

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ timings: INSTANT });
  dir = mkdtempSync(join(tmpdir(), "svc-shown-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const ref = () => ({ projectId: emu.projectId, branchId: emu.defaultBranchId });
const ids = () => ({ ...ref(), apiKey: emu.apiKey, apiHost: emu.apiHost });
const platform = () => createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
const platformState = (): unknown => emu.state.snapshot().projects;

/** The policy, counting how often its branch closure is evaluated. */
function counted() {
  const calls = { evaluations: 0 };
  const config = defineConfig({
    buckets: { fresh: {} },
    prune: { buckets: true },
    functions: { api: { name: "Api", source: join(dir, "fn"), bundler: "none", env: { KEY: "one" } } },
    branch: () => {
      calls.evaluations += 1;
      return { postgres: { computeSettings: { suspendTimeout: "10m" } } };
    },
  });
  return { config, calls };
}

beforeEach(async () => {
  // Each case starts from the same branch: media (to be pruned), no fresh bucket, no function.
  const api = platform();
  const buckets = (await api.listBuckets(ref())).map((b) => b.name);
  if (!buckets.includes("media")) await api.createBucket({ ...ref(), name: "media" });
  for (const name of ["fresh", "intruder"]) if (buckets.includes(name)) await api.deleteBucket({ ...ref(), bucket: name });
  if ((await api.listFunctions(ref())).some((f) => f.slug === "api")) await api.deleteFunction({ ...ref(), slug: "api" });
});

async function upload(bucket: string, key: string): Promise<void> {
  const base = `${emu.apiHost}/projects/${emu.projectId}/branches/${emu.defaultBranchId}/buckets/${bucket}/objects/${key}`;
  const presigned = await fetch(`${base}/presign`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ operation: "upload" }) });
  const { url } = (await presigned.json()) as { url: string };
  expect((await fetch(url, { method: "PUT", body: "data" })).ok).toBe(true);
}

async function refusedAsStale(shown: PushResult, config: ReturnType<typeof counted>["config"]): Promise<void> {
  const before = platformState();
  const err = await applyShownPlan(shown, { ...ids(), config, updateExisting: true }).then(() => undefined, (e: unknown) => e);
  expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
  expect(platformState()).toEqual(before);
}

describe("applying the plan just shown", () => {
  it("runs the shown changes after reading the branch again, with the policy evaluated once", async () => {
    const { config, calls } = counted();
    const shown = await planToShow(config, ids());
    const applied = await applyShownPlan(shown, { ...ids(), config, updateExisting: true });
    expect(applied.applied.map((a) => a.id)).toEqual(shown.changes.map((c) => c.id));
    expect(applied.bundles).toEqual(shown.bundles);
    expect(calls.evaluations).toBe(1);
    expect((await plan(config, ids())).changes).toEqual([]);
  });

  it("refuses as stale when a bucket was created after the plan was shown (seen by the second read wave only)", async () => {
    const { config, calls } = counted();
    const shown = await planToShow(config, ids());
    await platform().createBucket({ ...ref(), name: "intruder" });
    await refusedAsStale(shown, config);
    // The re-read differed, so the plan was made afresh (as `applyPlan` does) to name what moved.
    expect(calls.evaluations).toBe(2);
  });

  it("refuses as stale when the endpoint's settings were edited after the plan was shown (seen by the first read wave)", async () => {
    const { config } = counted();
    const shown = await planToShow(config, ids());
    const api = platform();
    const [endpoint] = await api.listEndpoints(ref());
    const edit = await api.updateEndpoint({ projectId: emu.projectId, endpointId: endpoint?.id ?? "", endpoint: { suspend_timeout_seconds: 3600 } });
    await api.waitForOperations({ projectId: emu.projectId, operations: edit.operations });
    await refusedAsStale(shown, config);
  });

  it("refuses as stale a shown delete of a bucket holding objects when the apply is not allowed to lose data", async () => {
    await upload("media", "cat.jpg");
    const { config } = counted();
    // Shown with allowDataLoss, as the CLI plans (the gate then asks for it); applied without it.
    const shown = await planToShow(config, { ...ids(), allowDataLoss: true });
    expect(shown.changes.map((c) => c.id)).toContain("delete:bucket.media");
    await refusedAsStale(shown, config);
    const applied = await applyShownPlan(shown, { ...ids(), config, updateExisting: true, allowDataLoss: true });
    expect(applied.applied.map((a) => a.id)).toEqual(shown.changes.map((c) => c.id));
  });

  it("refuses as stale a shown expiry that the apply's clock finds too close", async () => {
    const api = platform();
    const made = await api.createBranch({ projectId: emu.projectId, branch: { name: "shown-ttl" } });
    await api.waitForOperations({ projectId: emu.projectId, operations: made.operations });
    const branch = { ...ids(), branchId: made.branch.id };
    // An expiry 70 minutes after the branch's creation: more than the hour's lead when shown.
    const config = defineConfig({ branch: () => ({ ttl: "70m" }) });
    const shown = await planToShow(config, branch);
    expect(shown.changes.map((c) => c.id)).toEqual(["update:branch"]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 15 * 60_000 });
    try {
      const err = await applyShownPlan(shown, { ...branch, config, updateExisting: true }).then(() => undefined, (e: unknown) => e);
      expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect((await api.getBranch({ projectId: emu.projectId, branchId: made.branch.id })).expires_at ?? null).toBeNull();
  });

  // Hostile rows: what moved only where a guard read or a selection sees it.
  it("refuses as stale a shown delete of an empty bucket that received an object after the plan was shown, even when allowed to lose data", async () => {
    const { config } = counted();
    const shown = await planToShow(config, { ...ids(), allowDataLoss: true });
    expect(shown.changes.map((c) => c.id)).toContain("delete:bucket.media");
    await upload("media", "late.jpg");
    const before = platformState();
    const err = await applyShownPlan(shown, { ...ids(), config, updateExisting: true, allowDataLoss: true }).then(() => undefined, (e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
    expect(platformState()).toEqual(before);
    expect((await platform().listBuckets(ref())).map((b) => b.name)).toContain("media");
    // Shown again with the object, the delete runs (and leaves the next case an empty media).
    const again = await planToShow(config, { ...ids(), allowDataLoss: true });
    await applyShownPlan(again, { ...ids(), config, updateExisting: true, allowDataLoss: true });
  });

  it("refuses as stale when a lookalike of a pruned bucket's name (a Cyrillic i) was created after the plan was shown", async () => {
    const { config } = counted();
    const shown = await planToShow(config, ids());
    await platform().createBucket({ ...ref(), name: "med\u0456a" });
    try {
      await refusedAsStale(shown, config);
    } finally {
      await platform().deleteBucket({ ...ref(), bucket: "med\u0456a" });
    }
  });

  it("refuses as stale a plan of a selection when the branch moved outside the selection after it was shown, as applyPlan does", async () => {
    const { config } = counted();
    const shown = await planToShow(config, { ...ids(), targets: ["bucket.fresh"] });
    expect(shown.changes.map((c) => c.id)).toEqual(["create:bucket.fresh"]);
    await platform().createBucket({ ...ref(), name: "intruder" });
    const before = platformState();
    const err = await applyShownPlan(shown, { ...ids(), config, updateExisting: true, targets: ["bucket.fresh"] }).then(() => undefined, (e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
    expect(platformState()).toEqual(before);
  });

  it("refuses as stale when the branch the policy was evaluated for was renamed after the plan was shown", async () => {
    const api = platform();
    const made = await api.createBranch({ projectId: emu.projectId, branch: { name: "shown-renamed" } });
    await api.waitForOperations({ projectId: emu.projectId, operations: made.operations });
    const branch = { ...ids(), branchId: made.branch.id };
    // The closure reads the branch's name: evaluated for another name, it plans another policy.
    const config = defineConfig({ buckets: { fresh: {} }, branch: (t) => (t.name.endsWith("-2") ? { postgres: { computeSettings: { suspendTimeout: "5m" } } } : {}) });
    const shown = await planToShow(config, branch);
    expect(shown.changes.map((c) => c.id)).toEqual(["create:bucket.fresh"]);
    const renamed = await api.updateBranch({ projectId: emu.projectId, branchId: made.branch.id, branch: { name: "shown-renamed-2" } });
    await api.waitForOperations({ projectId: emu.projectId, operations: renamed.operations });
    const err = await applyShownPlan(shown, { ...branch, config, updateExisting: true }).then(() => undefined, (e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
    expect((await api.listBuckets({ projectId: emu.projectId, branchId: made.branch.id })).map((b) => b.name)).not.toContain("fresh");
  });

  it("refuses as stale when the branch was made protected after the plan was shown (the gate had seen it unprotected)", async () => {
    const api = platform();
    const made = await api.createBranch({ projectId: emu.projectId, branch: { name: "shown-guarded" } });
    await api.waitForOperations({ projectId: emu.projectId, operations: made.operations });
    const branch = { ...ids(), branchId: made.branch.id };
    const config = defineConfig({ buckets: { fresh: {} } });
    const shown = await planToShow(config, branch);
    expect(shown.changes.map((c) => c.id)).toEqual(["create:bucket.fresh"]);
    const guarded = await api.updateBranch({ projectId: emu.projectId, branchId: made.branch.id, branch: { protected: true } });
    await api.waitForOperations({ projectId: emu.projectId, operations: guarded.operations });
    const err = await applyShownPlan(shown, { ...branch, config, updateExisting: true }).then(() => undefined, (e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
    expect((await api.listBuckets({ projectId: emu.projectId, branchId: made.branch.id })).map((b) => b.name)).not.toContain("fresh");
  });

  it("goes through applyPlan for a result it did not keep (a plain plan, or another policy object)", async () => {
    const { config, calls } = counted();
    const shown = await plan(config, ids());
    expect(calls.evaluations).toBe(1);
    const applied = await applyShownPlan(shown, { ...ids(), config, updateExisting: true });
    expect(applied.applied.map((a) => a.id)).toEqual(shown.changes.map((c) => c.id));
    expect(calls.evaluations).toBe(2);
  });

  it("sends the re-read's second wave with its first, and applies with its answers", async () => {
    const { config } = counted();
    const shown = await planToShow(config, ids());
    const order: string[] = [];
    // Records when each request is sent and answered, by the last segment of its path.
    const recording: typeof fetch = async (input, init) => {
      const what = `${init?.method ?? "GET"} ${new URL(String(input)).pathname.split("/").at(-1) ?? ""}`;
      order.push(`send ${what}`);
      const answer = await fetch(input, init);
      order.push(`answer ${what}`);
      return answer;
    };
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, fetch: recording });
    const applied = await applyShownPlan(shown, { ...ref(), api, config, updateExisting: true });
    expect(applied.applied.map((a) => a.id)).toEqual(shown.changes.map((c) => c.id));
    const read = order.slice(0, order.findIndex((step) => !step.startsWith("send GET")));
    expect(read).toEqual(expect.arrayContaining(["send GET buckets", "send GET functions", `send GET ${emu.defaultBranchId}`, "send GET endpoints"]));
    expect(order.indexOf("send GET buckets")).toBeLessThan(order.findIndex((step) => step.startsWith("answer GET")));
  });
});

describe("a second read wave sent with the first", () => {
  it("is neither used nor reported when the first wave shows another branch: the second is read again", async () => {
    const config = defineConfig({ buckets: { fresh: {} } });
    const rt = withApiEvents(prepareRuntime("pushConfig", { ...ids() }));
    const desired = resolverFor(config, {})(await readBaseState({ api: rt.api, ...ref() }));
    const prepared = await preparePlan(rt, {
      ids: ref(),
      resolveDesired: () => desired,
      // Wave 2 read ahead for a branch that does not exist: its 404s must not surface.
      readAhead: { branch: { id: "br-missing-sun-000000" }, desired },
      allowDataLoss: false,
      now: () => new Date(),
    });
    expect(prepared.live.buckets?.map((b) => b.name)).toEqual(["media"]);
    expect(prepared.diff.changes.map((c) => c.change.id)).toContain("create:bucket.fresh");
  });
});
