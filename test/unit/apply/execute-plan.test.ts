import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import { executePlan } from "../../../src/apply/execute-plan.js";
import type { ExecutionContext } from "../../../src/apply/execution-context.js";
import type { EngineEvent } from "../../../src/model/events.js";
import { makeChange } from "../../../src/diff/change-builder.js";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { ResolvedTrigger } from "../../../src/kinds/trigger/fields.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { type FakePlatform, createFakePlatform, fakeBuildWatcher } from "../../helpers/fake-platform-api.js";
import { NOW, fnWith, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";
import { KIND_EXPECTED_WAITS, KIND_HANDLERS } from "../../../src/kinds/modules.js";
import { createAdaptiveLimit } from "../../../src/apply/adaptive-limit.js";

function setup(desired: ResolvedPolicy, live: LiveState, fake: FakePlatform, options: { concurrency?: number; signal?: AbortSignal } = {}) {
  const tags = new Map(desired.functions.map((f) => [f.slug, tagWith("C0DE", "C0F1")]));
  const planned = diffState(desired, live, { now: NOW, functionTags: tags, allowDataLoss: false }).changes;
  const events: EngineEvent[] = [];
  const request = pLimit(options.concurrency ?? 8);
  const ctx: ExecutionContext = {
    api: fake.api, projectId: "proj-1", branchId: "br-main-1", branchName: "main", desired,
    withArchive: (_slug, send) => send(new Uint8Array([1, 2, 3])),
    request, emit: (e) => events.push(e),
    timing: { deploymentMs: 60_000, pollInitialMs: 1, pollMaxMs: 2 },
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)), now: Date.now, functionMarkers: async (slug) => [`SVC_FINGERPRINT_C0DE_${slug.toUpperCase()}`], handlers: KIND_HANDLERS,
    builds: fakeBuildWatcher(fake, { deploymentMs: 60_000, pollInitialMs: 1, pollMaxMs: 2 }, { request, ...(options.signal ? { signal: options.signal } : {}) }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return { run: () => executePlan(planned, ctx), events, planned, ctx };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => fnWith(`fn${String(i).padStart(2, "0")}`, { env: { KEY: "secret-value" } }));
const tick = (fn: string): ResolvedTrigger => ({ name: `${fn}tick`, type: "schedule", function: fn, cron: "0 * * * *", functionPath: "/", enabled: true });

describe("executePlan", () => {
  it("keeps at most `concurrency` requests in flight while every build runs at once", async () => {
    const fake = createFakePlatform({ buildPolls: 3 });
    const { run } = setup(policyWith({ functions: many(24) }), liveWith({ functions: [] }), fake, { concurrency: 8 });
    const outcome = await run();
    expect(outcome.applied).toHaveLength(24);
    expect(fake.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.maxBuilding).toBe(24);
  });

  it("fails a function whose build fails with the platform's error, skips its dependents and applies the rest", async () => {
    const fake = createFakePlatform();
    fake.failBuilds.add("bad");
    const desired = policyWith({ functions: [fnWith("bad", { customDomains: ["bad.example.com"] }), fnWith("good")], triggers: [tick("bad"), tick("good")] });
    const outcome = await setup(desired, liveWith({ functions: [], triggers: [], customDomains: [] }), fake).run();
    expect(outcome.failed.map((f) => [f.change.id, f.error.message])).toEqual([["create:function.bad", expect.stringContaining("boom")]]);
    expect(outcome.skipped).toEqual([
      expect.objectContaining({ change: expect.objectContaining({ id: "create:trigger.badtick" }), blockedBy: "create:function.bad" }),
      expect.objectContaining({ change: expect.objectContaining({ id: "create:domain.bad.example.com" }), blockedBy: "create:function.bad" }),
    ]);
    expect(outcome.applied.map((a) => a.id)).toEqual(["create:function.good", "create:trigger.goodtick"]);
  });

  it("watches every pending build with one functions-list request per tick, never one poll per function", async () => {
    const fake = createFakePlatform({ buildPolls: 3 });
    const outcome = await setup(policyWith({ functions: many(24) }), liveWith({ functions: [] }), fake).run();
    expect(outcome.applied).toHaveLength(24);
    expect(fake.calls.filter((c) => c.startsWith("getFunction"))).toEqual([]);
    const lists = fake.calls.filter((c) => c.startsWith("listFunctions")).length;
    expect(lists).toBeGreaterThanOrEqual(3);
    expect(lists).toBeLessThan(24);
  });

  it("sets a new function's display name as soon as it exists, while it builds", async () => {
    const fake = createFakePlatform({ buildPolls: 3 });
    const outcome = await setup(policyWith({ functions: [fnWith("hello", { name: "Hello" })] }), liveWith({ functions: [] }), fake).run();
    expect(outcome.applied.map((a) => a.id)).toEqual(["create:function.hello"]);
    const renamed = fake.calls.indexOf("updateFunction hello");
    expect(renamed).toBeGreaterThan(fake.calls.indexOf("createDeployment hello"));
    expect(renamed).toBeLessThan(fake.calls.lastIndexOf("listFunctions br-main-1"));
    expect(fake.functions.get("hello")?.name).toBe("Hello");
  });

  it("starts a change only after its dependencies succeed", async () => {
    const fake = createFakePlatform();
    const desired = policyWith({ functions: [fnWith("hello", { customDomains: ["a.example.com"] })], triggers: [tick("hello")] });
    await setup(desired, liveWith({ functions: [], triggers: [], customDomains: [] }), fake).run();
    const lastBuildRead = fake.calls.lastIndexOf("listFunctions br-main-1");
    expect(lastBuildRead).toBeGreaterThan(0);
    expect(fake.calls.indexOf("createTrigger hellotick")).toBeGreaterThan(lastBuildRead);
    expect(fake.calls.indexOf("createCustomDomain a.example.com")).toBeGreaterThan(lastBuildRead);
  });

  it("sends first the requests of the changes the rest of the plan waits behind, whatever their plan order", async () => {
    const fake = createFakePlatform();
    const desired = policyWith({
      buckets: [{ name: "aaa", access: "private" }, { name: "bbb", access: "private" }],
      functions: [fnWith("alone", { name: "Alone" }), fnWith("ticking", { name: "Ticking" })],
      triggers: [tick("ticking")],
    });
    const { ctx, planned } = setup(desired, liveWith({ functions: [], triggers: [], buckets: [] }), fake);
    const oneSlot = createAdaptiveLimit({ initial: 1, max: 1 });
    await executePlan(planned, { ...ctx, request: oneSlot, expectedWaits: KIND_EXPECTED_WAITS, builds: fakeBuildWatcher(fake, ctx.timing, { request: oneSlot }) });
    const mutations = fake.calls.filter((c) => !c.startsWith("list"));
    // The deploy a trigger waits behind, then the other deploy (each waits for a build), the buckets in plan
    // order, the renames sent beside the builds (the one a trigger waits behind first), the trigger once built.
    expect(mutations).toEqual([
      "createDeployment ticking", "createDeployment alone",
      "createBucket aaa", "createBucket bbb",
      "updateFunction ticking", "updateFunction alone",
      "createTrigger tickingtick",
    ]);
    expect(planned.map((p) => p.change.id).indexOf("create:bucket.aaa")).toBeLessThan(planned.map((p) => p.change.id).indexOf("create:function.ticking"));
  });

  it("sends the full env, the new marker, and reports the deployment without env values", async () => {
    const fake = createFakePlatform();
    const { run, events } = setup(policyWith({ functions: [fnWith("hello", { env: { KEY: "secret-value" } })] }), liveWith({ functions: [] }), fake);
    const outcome = await run();
    expect([...(fake.functions.get("hello")?.env ?? [])]).toEqual(["KEY", "SVC_FINGERPRINT_C0DE_EHC0F1"]);
    expect(outcome.applied[0]?.details).toMatchObject({ deploymentId: 1, zipUploaded: true, invocationUrl: "https://hello.test/" });
    expect(JSON.stringify({ outcome, events })).not.toContain("secret-value");
  });

  it("reconciles an unknown outcome by reading: a landed bucket create is not sent twice", async () => {
    const fake = createFakePlatform();
    fake.unknownAfter.add("createBucket");
    const outcome = await setup(policyWith({ buckets: [{ name: "up", access: "private" }] }), liveWith({ buckets: [] }), fake).run();
    expect(outcome.applied.map((a) => a.id)).toEqual(["create:bucket.up"]);
    expect(fake.calls.filter((c) => c === "createBucket up")).toHaveLength(1);
  });

  it("stops scheduling after the signal aborts and reports unstarted changes as cancelled", async () => {
    const fake = createFakePlatform();
    const controller = new AbortController();
    fake.onRequest = () => controller.abort();
    const outcome = await setup(policyWith({ buckets: [{ name: "a", access: "private" }, { name: "b", access: "private" }] }), liveWith({ buckets: [] }), fake, { concurrency: 1, signal: controller.signal }).run();
    expect(outcome.started).toBe(true);
    expect(outcome.skipped.map((s) => [s.change.id, s.reason])).toEqual([["create:bucket.b", "cancelled"]]);
  });

  it("reports a change cancelled while waiting for its build as possibly applied, not as unchanged", async () => {
    const fake = createFakePlatform({ buildPolls: 1_000 });
    const controller = new AbortController();
    fake.onRequest = (method) => {
      if (method === "createDeployment") controller.abort();
    };
    const outcome = await setup(policyWith({ functions: [fnWith("hello")] }), liveWith({ functions: [] }), fake, { signal: controller.signal }).run();
    expect(outcome.failed).toEqual([{ change: expect.objectContaining({ id: "create:function.hello" }), error: { code: "PLATFORM_CANCELLED", message: expect.stringContaining("part of it may have been applied") } }]);
    expect(JSON.stringify(outcome.failed)).not.toContain("Nothing was changed");
  });

  it("does not count a change as started when the signal aborts during its reads, before any mutation", async () => {
    const fake = createFakePlatform();
    fake.domains.push({ domain: "a.example.com", entity_type: "function", entity_id: "blue", cname_target: "edge.test" });
    const controller = new AbortController();
    fake.onRequest = (method) => {
      if (method === "listCustomDomains") controller.abort();
    };
    const move = makeChange({
      address: "domain.a.example.com", kind: "domain", action: "replace", class: "override", fields: ["function"], before: "blue", after: "green", reason: "",
      op: { type: "domain-replace", domain: "a.example.com", previousSlug: "blue" }, planned: { entityId: "green" },
    });
    const { ctx } = setup(policyWith(), liveWith(), fake, { signal: controller.signal });
    const outcome = await executePlan([move], ctx);
    expect(outcome.started).toBe(false);
    expect(outcome.skipped.map((s) => [s.change.id, s.reason])).toEqual([[move.change.id, "cancelled"]]);
    expect(fake.calls).toEqual(["listCustomDomains br-main-1"]);
    expect(fake.domains).toEqual([expect.objectContaining({ entity_id: "blue" })]);
  });
});
