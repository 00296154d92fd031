import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyCreateResponseSchema, ApiKeyListResponseSchema } from "../../../src/api/wire/index.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";
import { client, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED } from "./helpers.js";

describe("authentication and isolation", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
  });
  afterAll(() => emu.close());

  it.each([
    ["no Authorization header", {}],
    ["an unknown key", { authorization: "Bearer svcemu_not_a_real_key" }],
    ["a cookie only", { cookie: "session=abc" }],
    ["a non-bearer scheme", { authorization: `Basic ${KEYS.alice}` }],
  ])("answers 401 unauthorized for %s", async (_name, headers) => {
    const res = await fetch(`${emu.apiHost}/projects`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { code: string }).code).toBe("unauthorized");
  });

  it("hides another account's project and everything nested under it with 404", async () => {
    const bob = client(emu, KEYS.bob);
    for (const path of ["/projects/alice-app-100001", "/projects/alice-app-100001/branches", "/projects/alice-app-100001/branches/br-alice-main-100001/functions", "/projects/alice-app-100001/operations"]) {
      expect((await bob.call("GET", path)).status).toBe(404);
    }
    expect((await bob.call("DELETE", "/projects/alice-app-100001/branches/br-alice-main-100001")).status).toBe(404);
    const list = await bob.call<{ projects: { id: string }[] }>("GET", "/projects");
    expect(list.body.projects.map((p) => p.id)).toEqual(["bob-app-200002"]);
  });

  it("scopes an organization key to its organization's projects and refuses personal routes with 403", async () => {
    const acme = client(emu, KEYS.acme);
    const list = await acme.call<{ projects: { id: string }[] }>("GET", "/projects");
    expect(list.body.projects.map((p) => p.id)).toEqual(["acme-site-300003"]);
    expect((await acme.call("GET", "/projects/alice-app-100001")).status).toBe(404);
    expect((await acme.call("GET", "/users/me")).status).toBe(403);
    expect((await acme.call("GET", "/api_keys")).status).toBe(403);
    expect((await acme.call("GET", "/auth")).body).toMatchObject({ account_id: "org-acme", auth_method: "api_key_org" });
  });

  it("creates a personal key shown once, lists it without the token, and revokes it for good", async () => {
    const alice = client(emu, KEYS.alice);
    const created = ApiKeyCreateResponseSchema.parse((await alice.call("POST", "/api_keys", { key_name: "temp" })).body);
    expect(created.key).toMatch(/^svcemu_[A-Za-z0-9_-]{43}$/);
    const list = await alice.call("GET", "/api_keys");
    expect(ApiKeyListResponseSchema.parse(list.body).map((k) => k.name)).toContain("temp");
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    const fresh = client(emu, created.key);
    expect((await fresh.call("GET", "/users/me")).body).toMatchObject({ email: "alice@example.test", plan: "scale" });
    const revoked = await alice.call<{ revoked: boolean }>("DELETE", `/api_keys/${created.id}`);
    expect(revoked.body.revoked).toBe(true);
    expect((await fresh.call("GET", "/projects")).status).toBe(401);
    expect((await alice.call("DELETE", `/api_keys/${created.id}`)).status).toBe(404);
  });

  it("manages organization keys for organization admins only", async () => {
    const alice = client(emu, KEYS.alice);
    const created = await alice.call<{ key: string; project_id: string }>("POST", "/organizations/org-acme/api_keys", { key_name: "site", project_id: "acme-site-300003" });
    expect(created.status).toBe(200);
    expect(created.body.project_id).toBe("acme-site-300003");
    expect((await client(emu, KEYS.bob).call("GET", "/organizations/org-acme/api_keys")).status).toBe(404);
    const list = await alice.call<{ name: string }[]>("GET", "/organizations/org-acme/api_keys");
    expect(list.body.map((k) => k.name)).toEqual(["acme-ci", "site"]);
  });

  it("refuses a project-scoped organization key on the organization's other projects with 403", async () => {
    const alice = client(emu, KEYS.alice);
    const other = await alice.call<{ project: { id: string; org_id: string } }>("POST", "/projects", { project: { name: "acme-other", org_id: "org-acme" } });
    expect(other.body.project.org_id).toBe("org-acme");
    const scoped = await alice.call<{ key: string }>("POST", "/organizations/org-acme/api_keys", { key_name: "scoped", project_id: "acme-site-300003" });
    const key = client(emu, scoped.body.key);
    expect((await key.call("GET", "/projects/acme-site-300003")).status).toBe(200);
    expect((await key.call<{ code: string }>("GET", `/projects/${other.body.project.id}`)).body.code).toBe("forbidden");
  });

  it.each([
    ["an eleventh branch on the free plan", async (bob: ReturnType<typeof client>) => {
      for (let i = 0; i < 9; i++) await bob.call("POST", "/projects/bob-app-200002/branches", { branch: { name: `b${i}` } });
      return bob.call<{ code: string }>("POST", "/projects/bob-app-200002/branches", { branch: { name: "one-too-many" } });
    }],
    ["a protected branch on the free plan", (bob: ReturnType<typeof client>) => bob.call<{ code: string }>("PATCH", "/projects/bob-app-200002/branches/br-bob-main-200002", { branch: { protected: true } })],
  ])("answers 403 plan_limit_exceeded for %s", async (_name, act) => {
    const res = await act(client(emu, KEYS.bob));
    expect([res.status, res.body.code]).toEqual([403, "plan_limit_exceeded"]);
  });

  it("stores keys hashed: the state document shows sha256 hashes and no token", async () => {
    const res = await fetch(`${emu.url}/__emulator/state?secrets=true`, { headers: { authorization: `Bearer ${KEYS.alice}` } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(/"hash":"sha256:[0-9a-f]{64}"/);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
  });
});

describe("request ids, admin routes and clock", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: new Date("2030-06-01T00:00:00Z") });
  });
  afterAll(() => emu.close());

  it("echoes a valid X-Request-ID in the header and error body, and replaces an invalid one", async () => {
    const res = await fetch(`${emu.apiHost}/projects/nope-nope-1`, { headers: { authorization: `Bearer ${KEYS.alice}`, "x-request-id": "req-123" } });
    expect(res.headers.get("x-request-id")).toBe("req-123");
    expect(((await res.json()) as { request_id: string }).request_id).toBe("req-123");
    const bad = await fetch(`${emu.apiHost}/projects`, { headers: { authorization: `Bearer ${KEYS.alice}`, "x-request-id": "x".repeat(200) } });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers health without a key, and the other admin routes only for admin keys", async () => {
    expect((await fetch(`${emu.url}/__emulator/health`)).status).toBe(200);
    expect((await fetch(`${emu.url}/__emulator/state`)).status).toBe(401);
    expect((await fetch(`${emu.url}/__emulator/state`, { headers: { authorization: `Bearer ${KEYS.bob}` } })).status).toBe(403);
  });

  it("redacts role passwords in the state document unless secrets=true", async () => {
    const state = emu.state.snapshot() as { projects: { branches: { roles: { password: string }[] }[] }[] };
    expect(state.projects[0]?.branches[0]?.roles[0]?.password).toBe("[redacted]");
    const secret = emu.state.snapshot({ secrets: true }) as typeof state;
    expect(secret.projects[0]?.branches[0]?.roles[0]?.password).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it("moves the manual clock forward only, over HTTP", async () => {
    const post = (body: unknown) => fetch(`${emu.url}/__emulator/clock`, { method: "POST", headers: { authorization: `Bearer ${KEYS.alice}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const advanced = await post({ advance_ms: 60_000 });
    expect(await advanced.json()).toEqual({ now: "2030-06-01T00:01:00.000Z", mode: "manual" });
    expect((await post({ set: "2029-01-01T00:00:00Z" })).status).toBe(400);
    expect(() => emu.clock.set(new Date("2020-01-01T00:00:00Z"))).toThrow(/backwards/);
  });

  it("resets to the seed, keeping the bootstrap key valid", async () => {
    const alice = client(emu, KEYS.alice);
    await alice.call("POST", "/projects", { project: { name: "temporary" } });
    const reset = await fetch(`${emu.url}/__emulator/reset`, { method: "POST", headers: { authorization: `Bearer ${KEYS.alice}` } });
    expect(reset.status).toBe(200);
    const list = await alice.call<{ projects: { name: string }[] }>("GET", "/projects");
    expect(list.body.projects.map((p) => p.name)).toEqual(["alice-app"]);
  });
});

describe("faults", () => {
  const run = async (plan: string, seed: number, requests: number): Promise<number[]> => {
    const emu = await startTestEmulator({ faults: plan, faultSeed: seed });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < requests; i++) statuses.push((await fetch(`${emu.apiHost}/projects/${emu.projectId}`, { headers: { authorization: `Bearer ${emu.apiKey}` } })).status);
      return statuses;
    } finally {
      await emu.close();
    }
  };

  it("injects the same faults on the same requests for the same seed and plan", async () => {
    const plan = "status=503,rate=0.3;status=429,rate=0.2";
    const a = await run(plan, 7, 30);
    const b = await run(plan, 7, 30);
    expect(a).toEqual(b);
    expect(a.filter((s) => s !== 200).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
  });

  it("fires nth rules exactly, with Retry-After and the X-Emulator-Fault header", async () => {
    const emu = await startTestEmulator({ faults: "status=429,nth=2|3,retry_after=4" });
    try {
      const replies = [];
      for (let i = 0; i < 4; i++) replies.push(await fetch(`${emu.apiHost}/projects`, { headers: { authorization: `Bearer ${emu.apiKey}` } }));
      expect(replies.map((r) => r.status)).toEqual([200, 429, 429, 200]);
      expect(replies[1]?.headers.get("retry-after")).toBe("4");
      expect(replies[1]?.headers.get("x-emulator-fault")).toBe("0");
      expect(((await replies[1]?.json()) as { code: string } | undefined)?.code).toBe("rate_limited");
      expect(emu.state.faults.injected()).toHaveLength(2);
      expect((await fetch(`${emu.url}/__emulator/health`)).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it("names the injected rules in the X-Emulator-Fault header and the request log, and `-` where none was", async () => {
    const emu = await startTestEmulator({ faults: "delay=5,method=GET,nth=1;status=503,method=GET,nth=1" });
    try {
      const get = (rid: string) => fetch(`${emu.apiHost}/projects`, { headers: { authorization: `Bearer ${emu.apiKey}`, "x-request-id": rid } });
      const faulted = await get("rid-faulted");
      const plain = await get("rid-plain");
      expect([faulted.status, faulted.headers.get("x-emulator-fault"), faulted.headers.get("x-request-id")]).toEqual([503, "0,1", "rid-faulted"]);
      expect([plain.status, plain.headers.get("x-emulator-fault"), plain.headers.get("x-request-id")]).toEqual([200, null, "rid-plain"]);
      expect(emu.state.requests().map((r) => [r.requestId, r.status, r.fault])).toEqual([["rid-faulted", 503, "0,1"], ["rid-plain", 200, "-"]]);
    } finally {
      await emu.close();
    }
  });

  it.each([
    ["a 429 without retry_after", "status=429,nth=1", 429, "1"],
    ["a 503 without retry_after", "status=503,nth=1", 503, null],
    ["a 503 with retry_after=2", "status=503,nth=1,retry_after=2", 503, "2"],
    ["a 423 with retry_after=3", "status=423,nth=1,retry_after=3", 423, "3"],
  ])("sends the documented Retry-After for %s", async (_name, plan, status, retryAfter) => {
    const emu = await startTestEmulator({ faults: plan });
    try {
      const res = await fetch(`${emu.apiHost}/regions`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
      expect([res.status, res.headers.get("retry-after")]).toEqual([status, retryAfter]);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    } finally {
      await emu.close();
    }
  });

  it("applies the mutation and then drops the connection for a phase=after reset (outcome unknown)", async () => {
    const emu = await startTestEmulator({ faults: "reset=1,phase=after,method=POST,path=/api/v2/projects/*/branches,nth=1" });
    try {
      await expect(fetch(`${emu.apiHost}/projects/${emu.projectId}/branches`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ branch: { name: "lost-reply" } }) })).rejects.toThrow();
      const list = await client(emu).call<{ branches: { name: string }[] }>("GET", `/projects/${emu.projectId}/branches?search=lost`);
      expect(list.body.branches.map((b) => b.name)).toEqual(["lost-reply"]);
    } finally {
      await emu.close();
    }
  });

  it("drops the connection before executing for a before-phase reset, and records delays", async () => {
    const emu = await startTestEmulator({ faults: "reset=1,method=POST,nth=1;delay=5,method=GET,nth=1" });
    try {
      await expect(fetch(`${emu.apiHost}/projects/${emu.projectId}/branches`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ branch: { name: "never" } }) })).rejects.toThrow();
      const count = await client(emu).call<{ count: number }>("GET", `/projects/${emu.projectId}/branches/count?search=never`);
      expect([count.status, count.body.count]).toEqual([200, 0]);
      expect(emu.state.faults.injected().map((f) => [f.kind, f.method])).toEqual([["reset", "POST"], ["delay", "GET"]]);
      expect(emu.state.requests().find((r) => r.method === "POST")?.status).toBe("reset");
    } finally {
      await emu.close();
    }
  });

  it("does not apply the mutation behind a before-phase 503", async () => {
    const emu = await startTestEmulator({ faults: "status=503,method=POST,nth=1" });
    try {
      const api = client(emu);
      expect((await api.call("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "refused" } })).status).toBe(503);
      expect((await api.call<{ count: number }>("GET", `/projects/${emu.projectId}/branches/count?search=refused`)).body.count).toBe(0);
    } finally {
      await emu.close();
    }
  });

  it.each([
    ["a 503 after the mutation", "status=503,phase=after", /phase=after/],
    ["a 423 after the mutation", "status=423,phase=after", /phase=after/],
    ["an unsupported status", "status=418", /status must be one of/],
    ["an unknown item", "status=503,often=yes", /unknown item "often"/],
    ["a probability above 1", "reset=1.5", /probability/],
  ])("rejects a plan with %s at start, naming the rule", async (_name, plan, message) => {
    await expect(startEmulator({ faults: plan })).rejects.toThrow(message);
  });

  it("injects a one-shot fault set at run time", async () => {
    const emu = await startTestEmulator();
    try {
      emu.state.faults.once({ kind: "status", status: 502 });
      const api = client(emu);
      expect((await api.call("GET", "/regions")).status).toBe(502);
      expect((await api.call("GET", "/regions")).status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});

describe("options", () => {
  it.each([
    [{ port: -1 }, /port/],
    [{ latencyMs: [50, 10] as [number, number] }, /latencyMs/],
    [{ apiKey: "short" }, /apiKey/],
    [{ seed: { version: 2 } }, /seed/],
    [{ seed: { version: 1, users: [{ email: "a@b.test" }], projects: [{ owner: "a@b.test", branches: [{ name: "main", default: true }, { name: "x", parent: "dev" }] }] } }, /projects\[0\]\.branches\[1\]\.parent: unknown branch "dev"/],
  ])("rejects invalid options naming the option (%#)", async (options, message) => {
    // Plain JavaScript callers can pass anything; the options are validated at run time.
    await expect(startEmulator(options as EmulatorOptions)).rejects.toThrow(message);
  });

  it("gives the same ids and secrets for the same id seed", async () => {
    const ids = async () => {
      const emu = await startTestEmulator({ idSeed: 42, apiKey: "svcemu_fixed_bootstrap_key_0001" });
      try {
        const res = await client(emu).call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "golden" } });
        return [emu.projectId, emu.defaultBranchId, res.body.branch.id];
      } finally {
        await emu.close();
      }
    };
    expect(await ids()).toEqual(await ids());
  });
});
