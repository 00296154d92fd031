import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthCredentialsSchema, LegacyAuthIntegrationListResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator, type Reply, type TestClient } from "./helpers.js";

const DEPRECATION = "@1772323200";
const SUNSET = "Sun, 01 Mar 2026 00:00:00 GMT";

function expectHeaders(emu: RunningEmulator, res: Reply<unknown>, replacement: string | null): void {
  expect(res.headers.get("deprecation")).toBe(DEPRECATION);
  if (replacement === null) {
    expect(res.headers.get("sunset")).toBeNull();
    expect(res.headers.get("link")).toBeNull();
  } else {
    expect(res.headers.get("sunset")).toBe(SUNSET);
    expect(res.headers.get("link")).toBe(`<${emu.apiHost}${replacement}>; rel="successor-version"`);
  }
}

describe("legacy per-project auth routes (the legacy-to-branch mapping)", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let p: string;
  let b: string;
  let legacy: string;
  let branchAuth: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
    p = emu.projectId;
    b = emu.defaultBranchId;
    legacy = `/projects/${p}/auth`;
    branchAuth = `/projects/${p}/branches/${b}/auth`;
  });
  afterAll(() => emu.close());

  it("POST /projects/auth/create without branch_id answers 400 invalid_request, with the deprecation headers", async () => {
    const res = await api.call<{ code: string }>("POST", "/projects/auth/create", { auth_provider: "stack", project_id: p });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.headers.get("deprecation")).toBe(DEPRECATION);
    expect(res.headers.get("sunset")).toBe(SUNSET);
  });

  it("POST /projects/auth/create enables auth like POST …/branches/{b}/auth, on the project's default database", async () => {
    const res = await api.call("POST", "/projects/auth/create", { auth_provider: "stack", project_id: p, branch_id: b, role_name: "ignored" });
    expect(res.status).toBe(201);
    expectHeaders(emu, res, branchAuth);
    expect(AuthCredentialsSchema.parse(res.body).schema_name).toBe("svc_auth");
    const replacement = await api.call<{ db_name: string; branch_id: string }>("GET", branchAuth);
    expect(replacement.status).toBe(200);
    expect(replacement.body).toMatchObject({ db_name: "neondb", branch_id: b });
  });

  it.each([
    ["POST", "/oauth_providers", { id: "google" }, 200, "GET", "/oauth_providers", { providers: [{ id: "google", type: "shared" }] }],
    ["PATCH", "/oauth_providers/google", { client_id: "cid", client_secret: "shh" }, 200, "GET", "/oauth_providers", { providers: [{ id: "google", type: "standard", client_id: "cid", client_secret: "shh" }] }],
    ["DELETE", "/oauth_providers/google", undefined, 200, "GET", "/oauth_providers", { providers: [] }],
    ["POST", "/domains", { domain: "https://app.example.test", auth_provider: "stack" }, 201, "GET", "/domains", { domains: [{ domain: "https://app.example.test", auth_provider: "stack" }] }],
    ["DELETE", "/domains", { auth_provider: "stack", domains: [{ domain: "https://app.example.test" }] }, 200, "GET", "/domains", { domains: [] }],
    ["PATCH", "/email_server", { host: "smtp.example.test", port: 587, password: "pw" }, 200, "GET", "/email_provider", { host: "smtp.example.test", port: 587 }],
  ])("%s /projects/{p}/auth%s has the same effect as its branch-level replacement", async (method, suffix, body, status, checkMethod, checkSuffix, expected) => {
    const res = await api.call(method, `${legacy}${suffix}`, body);
    expect(res.status).toBe(status);
    const replacementSuffix = suffix === "/email_server" ? "/email_provider" : suffix;
    expectHeaders(emu, res, `${branchAuth}${replacementSuffix}`);
    const check = await api.call(checkMethod, `${branchAuth}${checkSuffix}`);
    expect(check.body).toMatchObject(expected);
  });

  it.each([
    ["/oauth_providers", "/oauth_providers"],
    ["/domains", "/domains"],
    ["/email_server", "/email_provider"],
  ])("GET /projects/{p}/auth%s answers what GET …/branches/{b}/auth%s answers", async (suffix, replacementSuffix) => {
    const res = await api.call("GET", `${legacy}${suffix}`);
    expectHeaders(emu, res, `${branchAuth}${replacementSuffix}`);
    expect(res.body).toEqual((await api.call("GET", `${branchAuth}${replacementSuffix}`)).body);
  });

  it("POST /projects/auth/user creates a user that DELETE /projects/{p}/auth/users/{id} removes", async () => {
    const created = await api.call<{ id: string }>("POST", "/projects/auth/user", { project_id: p, auth_provider: "stack", email: "ada@example.test", name: "Ada" });
    expect(created.status).toBe(201);
    expectHeaders(emu, created, `${branchAuth}/users`);
    expect((await api.call("POST", `${branchAuth}/users`, { email: "ada@example.test" })).status).toBe(409);
    const removed = await api.call("DELETE", `${legacy}/users/${created.body.id}`);
    expect(removed.status).toBe(200);
    expectHeaders(emu, removed, `${branchAuth}/users/${created.body.id}`);
    expect((await api.call("DELETE", `${branchAuth}/users/${created.body.id}`)).status).toBe(404);
  });

  it("GET /projects/{p}/auth/integrations lists the integrations of every branch in {data}", async () => {
    const child = await api.call<{ branch: { id: string } }>("POST", `/projects/${p}/branches`, { branch: { name: "auth-child" } });
    await emu.settle();
    await api.call("POST", `/projects/${p}/branches/${child.body.branch.id}/auth`, { auth_provider: "better_auth" });
    const res = await api.call("GET", `${legacy}/integrations`);
    expect(res.status).toBe(200);
    expectHeaders(emu, res, branchAuth);
    expect(LegacyAuthIntegrationListResponseSchema.parse(res.body).data.map((i) => i.branch_id).sort()).toEqual([b, child.body.branch.id].sort());
  });

  it("POST /projects/auth/keys returns the integration's credentials with Deprecation only", async () => {
    const res = await api.call<{ secret_server_key: string }>("POST", "/projects/auth/keys", { project_id: p, auth_provider: "stack" });
    expect(res.status).toBe(201);
    expectHeaders(emu, res, null);
    expect(res.body.secret_server_key).toMatch(/^ssk_/);
  });

  it("POST /projects/auth/transfer_ownership returns a URL whose GET completes the transfer", async () => {
    const res = await api.call<{ url: string }>("POST", "/projects/auth/transfer_ownership", { project_id: p, auth_provider: "stack" });
    expect(res.status).toBe(200);
    expectHeaders(emu, res, null);
    expect((await api.call<{ transfer_status: string }>("GET", branchAuth)).body.transfer_status).toBe("initiated");
    expect(res.body.url.startsWith(`${emu.url}/__emulator/auth-transfer/`)).toBe(true);
    expect((await fetch(res.body.url)).status).toBe(200);
    expect((await api.call("GET", branchAuth)).body).toMatchObject({ owned_by: "user", transfer_status: "finished" });
    expect((await fetch(res.body.url)).status).toBe(404);
  });

  it("DELETE /projects/{p}/auth/integration/{provider} disables auth like DELETE …/branches/{b}/auth", async () => {
    expect((await api.call("DELETE", `${legacy}/integration/better_auth`)).status).toBe(404);
    const res = await api.call("DELETE", `${legacy}/integration/stack`, { delete_data: true });
    expect(res.status).toBe(200);
    expectHeaders(emu, res, branchAuth);
    expect((await api.call("GET", branchAuth)).status).toBe(404);
  });

  it("keeps the headers on errors: a foreign project answers 404 with Deprecation, Sunset and Link", async () => {
    const res = await api.call("GET", "/projects/someone-else-123456/auth/domains");
    expect(res.status).toBe(404);
    expect(res.headers.get("deprecation")).toBe(DEPRECATION);
    expect(res.headers.get("sunset")).toBe(SUNSET);
    expect(res.headers.get("link")).toContain("successor-version");
  });
});

describe("legacy auth after the removal date", () => {
  // Auth is not enabled on the seeded branch, so a served route answers the replacement's 404.
  it.each([
    ["gone", "2026-11-22T00:00:00Z", 410],
    ["gone", "2026-02-28T23:59:59Z", 404],
    ["serve", "2026-11-22T00:00:00Z", 404],
  ] as const)("with legacyAuthAfterSunset=%s at %s a dated route answers %i", async (mode, at, status) => {
    const emu = await startTestEmulator({ legacyAuthAfterSunset: mode, clock: new Date(at) });
    try {
      const api = client(emu);
      const res = await api.call<{ code: string; message: string }>("GET", `/projects/${emu.projectId}/auth/domains`);
      expect(res.status).toBe(status);
      if (status === 410) {
        expect(res.body.code).toBe("endpoint_removed");
        expect(res.body.message).toContain("/projects/{project_id}/branches/{branch_id}/auth/domains");
      }
      expect(res.headers.get("deprecation")).toBe(DEPRECATION);
      const undated = await api.call("POST", "/projects/auth/keys", { project_id: emu.projectId, auth_provider: "stack" });
      expect(undated.status).toBe(404);
    } finally {
      await emu.close();
    }
  });
});
