import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import {
  ErrorCode,
  PushAbortedError,
  apply,
  applyPlan,
  createBranch,
  createPlatformApi,
  defineConfig,
  inspect,
  isPlatformError,
  loadConfigFromFile,
  plan,
  pushConfig,
  renderPolicySource,
  toSavedPlan,
  type PushConfirmContext,
} from "../../../src/v1.js";
import { recordedDigests } from "../../../src/engine/result-digests.js";

const POLLING = { initialMs: 10, maxMs: 40 };
let emu: RunningEmulator;
let dir: string;

beforeEach(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 } });
  dir = mkdtempSync(join(tmpdir(), "svc-engine-ops-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default async () => new Response('hi');\n");
});
afterEach(async () => emu.close());

const ids = () => ({ projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING, baseDir: dir });
const policy = (greeting: string, extra: Record<string, unknown> = {}) =>
  defineConfig({
    buckets: { uploads: { access: "private" } },
    functions: { hello: { name: "Hello", source: "./fn", bundler: "none", env: { GREETING: greeting } } },
    ...extra,
  });

describe("saved plans", () => {
  it("applies a fresh saved plan exactly, and the branch then plans clean", async () => {
    const saved = toSavedPlan(await plan(policy("hi"), ids()));
    expect(JSON.stringify(saved)).not.toContain("GREETING\":\"hi");
    const result = await applyPlan(JSON.parse(JSON.stringify(saved)), { ...ids(), config: policy("hi") });
    expect(result.applied.map((a) => a.id)).toEqual(saved.changes.map((c) => c.id));
    expect((await plan(policy("hi"), ids())).changes).toEqual([]);
  });

  it("records on an apply's result the digests of the plan it ran (hashed while it waits for answers)", async () => {
    const saved = toSavedPlan(await plan(policy("hi"), ids()));
    const applied = await apply(policy("hi"), ids());
    expect(applied.applied.map((a) => a.id)).toEqual(saved.changes.map((c) => c.id));
    expect(recordedDigests(applied)).toEqual({ changesDigest: saved.changesDigest, changeDigests: saved.changeDigests });
  });

  it("commits a plan to the same digests whether they are asked for at once or later", async () => {
    const atOnce = toSavedPlan(await plan(policy("hi"), ids()));
    const later = await plan(policy("hi"), ids());
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const saved = toSavedPlan(later);
    expect(saved.changes.length).toBeGreaterThan(1);
    expect({ changesDigest: saved.changesDigest, changeDigests: saved.changeDigests }).toEqual({ changesDigest: atOnce.changesDigest, changeDigests: atOnce.changeDigests });
  });

  it("a plan whose second read wave fails rejects with the read's error and leaves no unhandled rejection behind", async () => {
    emu.state.faults.set([{ kind: "status", status: 500, methods: ["GET"], path: "/api/v2/projects/*/branches/*/buckets" }]);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const err = await plan(defineConfig({ buckets: { uploads: { access: "private" } } }), ids()).catch((e: unknown) => e);
      expect(isPlatformError(err, ErrorCode.SERVER_ERROR)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });

  it.each([
    ["the branch changed since the plan", "state", async () => void (await apply(defineConfig({ buckets: { other: { access: "private" } } }), ids())), "hi"],
  ])("refuses a stale plan when %s", async (_label, reason, between, greeting) => {
    const saved = toSavedPlan(await plan(policy("hi"), ids()));
    await between();
    const err = await applyPlan(saved, { ...ids(), config: policy(greeting) }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.STALE_PLAN)).toBe(true);
    expect((err as { details: { reason: string } }).details.reason).toBe(reason);
  });

  it.each([
    ["keyed, for a function's first deployment", { fingerprintKey: "ab".repeat(32) }, false],
    ["hardened, for a deployed function", {}, true],
  ])("pins env values in the saved plan (%s): an edited value makes it stale", async (_label, mode, deployFirst) => {
    if (deployFirst) await apply(policy("hi"), { ...ids(), ...mode });
    const saved = toSavedPlan(await plan(policy("hi2"), { ...ids(), ...mode }));
    const err = await applyPlan(saved, { ...ids(), ...mode, config: policy("edited") }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.STALE_PLAN)).toBe(true);
    expect((err as { details: { reason: string } }).details.reason).toBe("changes");
  });

  it("refuses a plan saved for another branch before any read", async () => {
    const saved = toSavedPlan(await plan(policy("hi"), ids()));
    const err = await applyPlan(saved, { ...ids(), branchId: "br-elsewhere-1", config: policy("hi") }).catch((e: unknown) => e);
    expect((err as { details: { reason: string } }).details.reason).toBe("target");
  });
});

describe("createBranch", () => {
  it("creates the branch with its create-time settings in one call, then pushes the rest", async () => {
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
    let calls = 0;
    const config = policy("hi", {
      branch: (t: { exists: boolean }) => {
        calls += 1;
        expect(t.exists).toBe(false);
        return { ttl: "7d", postgres: { computeSettings: { autoscalingLimitMaxCu: 2 } } };
      },
    });
    const created = await createBranch(config, { projectId: emu.projectId, branchName: "preview-1", api, baseDir: dir, polling: POLLING });
    expect(calls).toBe(1);
    expect(created.result.applied[0]).toMatchObject({ id: "create:branch", fields: ["parent", "expiresAt", "autoscalingLimitMaxCu"] });
    expect(created.result.applied.map((a) => a.id)).toContain("create:function.hello");
    const mutations = emu.state.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    expect(mutations.filter((m) => m === `POST /api/v2/projects/${emu.projectId}/branches`)).toHaveLength(1);
    expect(mutations.filter((m) => m.startsWith("PATCH") && !m.includes("/functions/"))).toEqual([]);
    const again = await plan(policy("hi", { branch: () => ({ ttl: "7d", postgres: { computeSettings: { autoscalingLimitMaxCu: 2 } } }) }), { ...ids(), branchId: created.branchId });
    expect(again.changes).toEqual([]);
  });

  it("reports the bundler's warnings in its result", async () => {
    mkdirSync(join(dir, "fn", "sub"));
    symlinkSync("..", join(dir, "fn", "sub", "loop"));
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
    const created = await createBranch(policy("hi"), { projectId: emu.projectId, branchName: "preview-6", api, baseDir: dir, polling: POLLING });
    expect(created.result.warnings).toContainEqual(expect.objectContaining({ code: "BUNDLER", address: "function.hello", message: expect.stringContaining("loop") }));
  });

  it.each([
    ["a taken name", "main", {}, ErrorCode.CONFLICT],
    ["a missing parent", "preview-2", { branch: () => ({ parent: "nope" }) }, ErrorCode.BRANCH_NOT_FOUND],
  ])("refuses %s before creating anything", async (_label, branchName, extra, code) => {
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const err = await createBranch(policy("hi", extra), { projectId: emu.projectId, branchName, api, baseDir: dir }).catch((e: unknown) => e);
    expect(isPlatformError(err, code)).toBe(true);
  });
});

describe("createBranch compute pre-check", () => {
  it("refuses one declared bound that breaks the pair with the project's default compute, creating nothing", async () => {
    const patched = await fetch(`${emu.apiHost}/projects/${emu.projectId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ project: { default_endpoint_settings: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 8 } } }),
    });
    expect(patched.status).toBe(200);
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
    const config = policy("hi", { branch: () => ({ postgres: { computeSettings: { autoscalingLimitMaxCu: 2 } } }) });

    const err = await createBranch(config, { projectId: emu.projectId, branchName: "preview-5", api, baseDir: dir, polling: POLLING }).catch((e: unknown) => e);

    expect(isPlatformError(err, ErrorCode.PUSH_CONFLICT)).toBe(true);
    expect((err as { details: { conflicts: unknown[] } }).details.conflicts).toEqual([
      expect.objectContaining({ code: "COMPUTE_PAIR_INVALID", field: "autoscalingLimitMaxCu", desired: { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 2 }, blocking: true }),
    ]);
    expect((await api.listBranches({ projectId: emu.projectId })).map((b) => b.name)).not.toContain("preview-5");
  });
});

describe("createBranch failures once the branch exists", () => {
  it("reports a later failure as PartialBranchCreateError naming the new branch and what was applied", async () => {
    emu.state.faults.set([{ kind: "status", status: 500, methods: ["POST"], path: "/api/v2/projects/*/branches/*/buckets", times: 2 }]);
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
    const err = await createBranch(policy("hi"), { projectId: emu.projectId, branchName: "preview-3", api, baseDir: dir, polling: POLLING }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.PARTIAL_BRANCH_CREATE)).toBe(true);
    const details = (err as { details: { branchId: string; result: { applied: { id: string }[]; failed: { change: { id: string } }[] } } }).details;
    expect(details.branchId).toMatch(/^br-/);
    expect(details.result.applied[0]?.id).toBe("create:branch");
    expect(details.result.failed.map((f) => f.change.id)).toEqual(["create:bucket.uploads"]);
  });

  it("treats an unknown outcome of the create call as partial when the branch turns out to exist", async () => {
    emu.state.faults.once({ kind: "status", status: 502, phase: "after", methods: ["POST"], path: "/api/v2/projects/*/branches" });
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
    const err = await createBranch(policy("hi"), { projectId: emu.projectId, branchName: "preview-4", api, baseDir: dir }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.PARTIAL_BRANCH_CREATE)).toBe(true);
    expect((err as { cause: unknown }).cause).toMatchObject({ code: ErrorCode.OUTCOME_UNKNOWN });
  });
});

describe("pushConfig gating", () => {
  it("calls confirm once with the seed's context and aborts with the reasons when it says no", async () => {
    const contexts: PushConfirmContext[] = [];
    const config = defineConfig({ branch: () => ({ protected: true }) });
    const err = await pushConfig(config, { ...ids(), confirm: (c) => (contexts.push(c), false) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PushAbortedError);
    expect((err as PushAbortedError).reasons).toEqual(["override-updates"]);
    expect(contexts).toMatchObject([{ branchName: "main", protectedBranch: false, overrideUpdates: true, changes: [{ id: "update:branch" }] }]);
  });

  it("apply refuses unconfirmed overrides with PushConflictError carrying the conflicts, and changes nothing", async () => {
    const config = defineConfig({ branch: () => ({ protected: true }) });
    const err = await apply(config, ids()).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.PUSH_CONFLICT)).toBe(true);
    expect((err as { conflicts: { code: string }[] }).conflicts.map((c) => c.code)).toEqual(["OVERRIDE_NOT_CONFIRMED"]);
    expect((await plan(config, ids())).changes.map((c) => c.id)).toEqual(["update:branch"]);
  });

  it("reports a branch name passed as an id with the available branches", async () => {
    const err = await plan(policy("hi"), { ...ids(), branchId: "main" }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.BRANCH_NOT_FOUND)).toBe(true);
    expect((err as Error).message).toContain(emu.defaultBranchId);
  });
});

describe("cancellation", () => {
  it("stops scheduling once the signal aborts and throws CancelledError with what was applied", async () => {
    const controller = new AbortController();
    const config = defineConfig({ buckets: { a: { access: "private" }, b: { access: "private" }, c: { access: "private" } } });
    const onEvent = (e: { type: string; phase?: string }) => {
      if (e.type === "change" && e.phase === "done") controller.abort();
    };
    const err = await apply(config, { ...ids(), concurrency: 1, maxConcurrency: 1, signal: controller.signal, onEvent }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.CANCELLED)).toBe(true);
    const result = (err as { details: { result: { applied: { id: string }[]; failed: unknown[]; skipped: { change: { id: string }; reason: string }[] } } }).details.result;
    expect(result.applied.map((a) => a.id)).toEqual(["create:bucket.a"]);
    // b may already be in flight when the signal aborts (its request is then aborted); c never starts.
    expect(result.failed.length + result.skipped.length).toBe(2);
    expect(result.skipped.map((s) => [s.change.id, s.reason])).toContainEqual(["create:bucket.c", "cancelled"]);
  });

  it("reports a mutation aborted in flight as outcome unknown, skips the rest as cancelled and throws CancelledError", async () => {
    const controller = new AbortController();
    const abortOnFirstBucket: typeof fetch = (input, init) => {
      if (init?.method === "POST" && String(input).endsWith("/buckets")) controller.abort();
      return fetch(input, init);
    };
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, fetch: abortOnFirstBucket, signal: controller.signal });
    const config = defineConfig({ buckets: { a: { access: "private" }, b: { access: "private" } } });

    const err = await apply(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, api, concurrency: 1, maxConcurrency: 1, signal: controller.signal }).catch((e: unknown) => e);

    expect(isPlatformError(err, ErrorCode.CANCELLED)).toBe(true);
    const result = (err as { details: { result: { applied: unknown[]; failed: { change: { id: string }; error: { code: string } }[]; skipped: { change: { id: string }; reason: string }[] } } }).details.result;
    expect(result.applied).toEqual([]);
    expect(result.failed.map((f) => [f.change.id, f.error.code])).toEqual([["create:bucket.a", ErrorCode.OUTCOME_UNKNOWN]]);
    expect(result.skipped.map((s) => [s.change.id, s.reason])).toEqual([["create:bucket.b", "cancelled"]]);
  });
});

describe("outcome unknown", () => {
  const listBuckets = () => createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost }).listBuckets({ projectId: emu.projectId, branchId: emu.defaultBranchId });

  it("reconciles a mutation that landed without an answer by reading it back, sending it once", async () => {
    emu.state.faults.once({ kind: "status", status: 502, phase: "after", methods: ["POST"], path: "/api/v2/projects/*/branches/*/buckets" });
    const result = await apply(policy("hi"), ids());
    expect(result.applied.map((a) => a.id)).toContain("create:bucket.uploads");
    expect((await listBuckets()).filter((b) => b.name === "uploads")).toHaveLength(1);
    expect(emu.state.faults.injected().map((f) => f.phase)).toEqual(["after"]);
  });

  it("reports PLATFORM_OUTCOME_UNKNOWN when the resend is unanswered too, and a re-run converges without duplicates", async () => {
    const domainPolicy = policy("hi", { functions: { hello: { name: "Hello", source: "./fn", bundler: "none", env: { GREETING: "hi" }, customDomains: ["app.example.com"] } } });
    emu.state.faults.set([{ kind: "status", status: 502, phase: "after", methods: ["POST"], path: "/api/v2/projects/*/branches/*/custom-domains", times: 2 }]);
    const err = await apply(domainPolicy, ids()).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.APPLY_FAILED)).toBe(true);
    const failed = (err as { result: { failed: { change: { id: string }; error: { code: string } }[] } }).result.failed;
    expect(failed.map((f) => [f.change.id, f.error.code])).toEqual([["create:domain.app.example.com", ErrorCode.OUTCOME_UNKNOWN]]);
    await apply(domainPolicy, ids());
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const domains = await api.listCustomDomains({ projectId: emu.projectId, branchId: emu.defaultBranchId });
    expect(domains.map((d) => [d.domain, d.entity_id])).toEqual([["app.example.com", "hello"]]);
    expect((await plan(domainPolicy, ids())).changes).toEqual([]);
  });
});

describe("pulled policies", () => {
  it("round-trip: the pulled config, and its rendered source, plan no changes and no conflicts", async () => {
    await apply(policy("hi", { auth: true, dataApi: { settings: { dbMaxRows: 50 } }, branch: () => ({ postgres: { computeSettings: { suspendTimeout: "10m" } } }) }), { ...ids(), updateExisting: true });
    const pulled = await inspect(ids());
    const direct = await plan(pulled.config, ids());
    expect(direct.changes).toEqual([]);
    expect(direct.conflicts).toEqual([]);
    const source = renderPolicySource(pulled);
    expect(source).toContain('import { defineConfig } from "svc-config/v1";');
    // The fixture directory cannot resolve the package by name; an identity defineConfig keeps the text otherwise as rendered.
    const local = source.replace('import { defineConfig } from "svc-config/v1";', "const defineConfig = <T,>(value: T): T => value;");
    writeFileSync(join(dir, "svc.ts"), local);
    const loaded = await loadConfigFromFile({ path: join(dir, "svc.ts") });
    const rendered = await plan(loaded.config, ids());
    expect(rendered.changes).toEqual([]);
    expect(rendered.conflicts).toEqual([]);
  });
});
