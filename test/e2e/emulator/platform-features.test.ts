import { afterAll, beforeAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { CustomDomainSchema, FunctionResponseSchema, TriggerResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, zipOf, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const B = `/projects/${P}/branches/br-alice-main-100001`;

describe("function deployments", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, timings: { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 100, deployBuildMs: 300, domainActivationMs: 500, claimTransferMs: 0 }, clock: "manual" });
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("creates the function on first deploy and walks pending, building, completed", async () => {
    const res = await deploy(emu, `${B}/functions/worker/deployments`, { zip: await zipOf({ "index.mjs": "export default () => 1;" }), runtime: "nodejs24", environment: { API_URL: "https://x", TOKEN: "s3cret" } });
    expect(res.status).toBe(201);
    expect(res.body.deployment).toMatchObject({ id: 1, status: "pending", runtime: "nodejs24", environment: ["API_URL", "TOKEN"] });
    const current = async () => FunctionResponseSchema.parse((await api.call("GET", `${B}/functions/worker`)).body).function;
    expect((await current()).current_deployment?.status).toBe("pending");
    expect((await current()).active_deployment).toBeUndefined();
    emu.clock.advance(100);
    expect((await current()).current_deployment?.status).toBe("building");
    emu.clock.advance(300);
    const done = await current();
    expect([done.current_deployment?.status, done.active_deployment?.id]).toEqual(["completed", 1]);
    // Each function answers on a port of its own on the emulator's address.
    expect(done.invocation_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(done.invocation_url ?? "").port).not.toBe(new URL(emu.url).port);
    expect(JSON.stringify(done)).not.toContain("s3cret");
  });

  it("merges an env-only redeploy per name: listed names set, empty deletes, others kept; the archive is inherited", async () => {
    const res = await deploy(emu, `${B}/functions/worker/deployments`, { environment: { TOKEN: "", EXTRA: "1" } });
    expect(res.status).toBe(201);
    expect(res.body.deployment).toMatchObject({ id: 2, environment: ["API_URL", "EXTRA"] });
    await emu.settle();
    const fn = FunctionResponseSchema.parse((await api.call("GET", `${B}/functions/worker`)).body).function;
    expect(fn.active_deployment?.id).toBe(2);
  });

  it.each([
    ["bytes that are not a ZIP", async () => new TextEncoder().encode("not a zip at all"), /^archive is not a valid ZIP file: /],
    ["a ZIP without index.mjs or index.js at its root", () => zipOf({ "src/index.mjs": "x", "README.md": "y" }), /^no index\.mjs or index\.js at the archive root$/],
  ])("accepts %s and fails the build with the reason", async (_name, make, reason) => {
    const res = await deploy(emu, `${B}/functions/broken/deployments`, { zip: await make() });
    expect(res.status).toBe(201);
    await emu.settle();
    const fn = FunctionResponseSchema.parse((await api.call("GET", `${B}/functions/broken`)).body).function;
    expect(fn.current_deployment?.status).toBe("failed");
    expect(fn.current_deployment?.error).toMatch(reason);
  });

  it("refuses a zip-slip entry with 422 naming it, and stores nothing", async () => {
    const zip = new JSZip();
    zip.file("index.mjs", "x");
    zip.file("../../etc/evil.js", "y", { createFolders: false });
    const res = await deploy(emu, `${B}/functions/slip/deployments`, { zip: await zip.generateAsync({ type: "uint8array" }) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unsafe_archive_entry");
    expect(res.body.message).toContain("../../etc/evil.js");
    expect((await api.call("GET", `${B}/functions/slip`)).status).toBe(404);
  });

  it.each([
    ["no parts at all", {}, 400, "invalid_request"],
    ["an environment-only first deployment", { environment: { A: "1" } }, 422, "zip_required"],
    ["an unknown runtime", { runtime: "python3" }, 400, "invalid_request"],
    ["an invalid environment name", { environment: { "1BAD": "x" } }, 400, "invalid_request"],
  ])("refuses %s", async (_name, parts, status, code) => {
    const res = await deploy(emu, `${B}/functions/fresh/deployments`, parts);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });

  it("refuses an archive over the size limit with 413", async () => {
    const small = await startTestEmulator({ limits: { zipBytes: 64 } });
    try {
      const res = await deploy(small, `/projects/${small.projectId}/branches/${small.defaultBranchId}/functions/big/deployments`, { zip: await zipOf({ "index.mjs": "x".repeat(500) + Math.random() }) });
      expect(res.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it("renames with PATCH (trimmed; null resets to the slug) and deletes with its triggers", async () => {
    const renamed = await api.call<{ function: { name: string } }>("PATCH", `${B}/functions/worker`, { name: "  Worker  " });
    expect(renamed.body.function.name).toBe("Worker");
    expect((await api.call("PATCH", `${B}/functions/worker`, { name: "   " })).status).toBe(400);
    const reset = await api.call<{ function: { name: string } }>("PATCH", `${B}/functions/worker`, { name: null });
    expect(reset.body.function.name).toBe("worker");
    await api.call("POST", `${B}/triggers`, { type: "schedule", function_slug: "worker", name: "w", schedule: { cron: "*/5 * * * *" } });
    expect((await api.call("DELETE", `${B}/functions/worker`)).status).toBe(204);
    const triggers = await api.call<{ triggers: { function_slug: string }[] }>("GET", `${B}/triggers`);
    expect(triggers.body.triggers.map((t) => t.function_slug)).not.toContain("worker");
  });

  it("lists functions and answers 400 for an invalid slug", async () => {
    const list = await api.call<{ functions: { slug: string }[] }>("GET", `${B}/functions`);
    expect(list.body.functions.map((f) => f.slug)).toContain("hello");
    expect((await api.call("GET", `${B}/functions/Bad_Slug`)).status).toBe(400);
  });
});

describe("triggers", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("creates schedule and storage triggers; a match-all storage trigger omits prefix", async () => {
    const sched = await api.call("POST", `${B}/triggers`, { type: "schedule", function_slug: "hello", name: "nightly", schedule: { cron: "0  3 * * *" } });
    expect(sched.status).toBe(201);
    const t = TriggerResponseSchema.parse(sched.body).trigger;
    expect([t.schedule?.cron, t.enabled, t.version, t.function_path]).toEqual(["0 3 * * *", true, 1, "/"]);
    expect(typeof t.next_run_at).toBe("string");
    const storage = TriggerResponseSchema.parse((await api.call("POST", `${B}/triggers`, { type: "storage_object_created", function_slug: "hello", name: "uploads", storage_object_created: { bucket_name: "uploads" } })).body).trigger;
    expect(storage.storage_object_created).toEqual({ bucket_name: "uploads" });
  });

  it.each([
    ["0 * * * *", "2030-01-01T11:00:00.000Z"],
    ["*/15 * * * *", "2030-01-01T10:30:00.000Z"],
    ["0 9 * * 1", "2030-01-07T09:00:00.000Z"],
    ["0 0 13 * 5", "2030-01-04T00:00:00.000Z"],
  ])("computes next_run_at of %s in UTC from the emulator clock", async (cron, expected) => {
    const manual = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: new Date("2030-01-01T10:17:30Z") });
    try {
      const res = await client(manual).call("POST", `${B}/triggers`, { type: "schedule", function_slug: "hello", name: "when", schedule: { cron } });
      expect(TriggerResponseSchema.parse(res.body).trigger.next_run_at).toBe(expected);
    } finally {
      await manual.close();
    }
  });

  it.each([
    ["a six-field cron", { type: "schedule", function_slug: "hello", name: "a", schedule: { cron: "0 0 * * * *" } }, 400],
    ["an hour of 24", { type: "schedule", function_slug: "hello", name: "a", schedule: { cron: "0 24 * * *" } }, 400],
    ["an unknown function", { type: "schedule", function_slug: "nope", name: "a", schedule: { cron: "0 * * * *" } }, 404],
    ["an unknown bucket", { type: "storage_object_created", function_slug: "hello", name: "a", storage_object_created: { bucket_name: "nope" } }, 404],
    ["a taken name", { type: "schedule", function_slug: "hello", name: "hourly", schedule: { cron: "0 * * * *" } }, 409],
  ])("refuses a trigger with %s", async (_name, body, status) => {
    expect((await api.call("POST", `${B}/triggers`, body)).status).toBe(status);
  });

  it("bumps the version on PATCH, refuses a type change with 422, and deletes", async () => {
    const list = await api.call<{ triggers: { trigger_id: string; name: string }[] }>("GET", `${B}/triggers`);
    const id = list.body.triggers.find((t) => t.name === "hourly")?.trigger_id;
    const patched = TriggerResponseSchema.parse((await api.call("PATCH", `${B}/triggers/${id}`, { type: "schedule", enabled: false })).body).trigger;
    expect([patched.version, patched.enabled, patched.next_run_at]).toEqual([2, false, null]);
    expect((await api.call<{ code: string }>("PATCH", `${B}/triggers/${id}`, { type: "storage_object_created" })).body.code).toBe("type_mismatch");
    expect((await api.call("DELETE", `${B}/triggers/${id}`)).status).toBe(204);
    expect((await api.call("GET", `${B}/triggers/${id}`)).status).toBe(404);
  });

  it("enables an inherited trigger on a child as a branch-local copy with the same id, leaving the parent's untouched", async () => {
    const parentList = await api.call<{ triggers: { trigger_id: string; name: string; enabled: boolean }[] }>("GET", `${B}/triggers`);
    const nightly = parentList.body.triggers.find((t) => t.name === "nightly");
    const child = await api.call<{ branch: { id: string } }>("POST", `/projects/${P}/branches`, { branch: { name: "trig-child" } });
    const path = `/projects/${P}/branches/${child.body.branch.id}/triggers/${nightly?.trigger_id}`;
    const enabled = TriggerResponseSchema.parse((await api.call("PATCH", path, { type: "schedule", enabled: true })).body).trigger;
    expect([enabled.trigger_id, enabled.enabled, enabled.inherited]).toEqual([nightly?.trigger_id, true, false]);
    expect((await api.call("DELETE", path)).status).toBe(204);
    expect((await api.call("GET", `${B}/triggers/${nightly?.trigger_id}`)).status).toBe(200);
  });
});

describe("custom domains", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: "manual", timings: { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 500, claimTransferMs: 0 } });
  });
  afterAll(() => emu.close());

  it("registers a normalised domain as pending and activates it after domain_active ms", async () => {
    const alice = client(emu, KEYS.alice);
    const res = await alice.call("POST", `${B}/custom-domains`, { domain: "WWW.Alice-Shop.com.", entity_type: "function", entity_id: "hello" });
    expect(res.status).toBe(201);
    expect(CustomDomainSchema.parse(res.body)).toMatchObject({ domain: "www.alice-shop.com", status: "pending", dns_status: "pending", binding_status: "present", cname_target: "edge.aws-us-east-2.emulator.invalid" });
    emu.clock.advance(500);
    const list = await alice.call<{ custom_domains: { domain: string; status: string }[] }>("GET", `${B}/custom-domains`);
    expect(list.body.custom_domains).toEqual([expect.objectContaining({ domain: "www.alice-shop.com", status: "active" })]);
  });

  it("treats the same owner's re-registration as a no-op and another account's as 409 without naming the owner", async () => {
    const again = await client(emu, KEYS.alice).call("POST", `${B}/custom-domains`, { domain: "www.alice-shop.com", entity_type: "function", entity_id: "hello" });
    expect([again.status, (again.body as { status: string }).status]).toEqual([201, "active"]);
    const bob = await client(emu, KEYS.bob).call<{ code: string; message: string }>("POST", "/projects/bob-app-200002/branches/br-bob-main-200002/custom-domains", { domain: "www.alice-shop.com", entity_type: "function", entity_id: "api" });
    expect([bob.status, bob.body.code]).toEqual([409, "domain_taken"]);
    expect(bob.body.message).not.toMatch(/alice-app|100001|alice@|hello/);
  });

  it.each([
    ["localhost", { domain: "localhost", entity_type: "function", entity_id: "hello" }, 400, "invalid_request"],
    ["an IP literal", { domain: "10.0.0.1", entity_type: "function", entity_id: "hello" }, 400, "invalid_request"],
    ["an emulator host", { domain: "x.emulator.invalid", entity_type: "function", entity_id: "hello" }, 400, "invalid_request"],
    ["a branch entity", { domain: "b.alice-shop.com", entity_type: "branch", entity_id: "hello" }, 400, "invalid_entity_type"],
    ["an unknown function", { domain: "c.alice-shop.com", entity_type: "function", entity_id: "nope" }, 404, "not_found"],
  ])("refuses %s", async (_name, body, status, code) => {
    const res = await client(emu, KEYS.alice).call<{ code: string }>("POST", `${B}/custom-domains`, body);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });

  it("deletes case-insensitively and answers 404 for a domain not on the branch", async () => {
    const alice = client(emu, KEYS.alice);
    expect((await alice.call("DELETE", `${B}/custom-domains/WWW.ALICE-SHOP.COM`)).status).toBe(204);
    expect((await alice.call("DELETE", `${B}/custom-domains/www.alice-shop.com`)).status).toBe(404);
  });

  it("answers 404 feature_unavailable in a region without platform features", async () => {
    const acme = client(emu, KEYS.acme);
    const res = await acme.call<{ code: string; message: string }>("GET", "/projects/acme-site-300003/branches/br-acme-main-300003/custom-domains");
    expect([res.status, res.body.code]).toEqual([404, "feature_unavailable"]);
    expect(res.body.message).toContain("not available");
  });
});

describe("storage, AI gateway, credentials, auth and data API", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    api = client(emu, KEYS.alice);
  });
  afterAll(() => emu.close());

  it("reports storage and the AI gateway, or 404 with the region reason where unavailable", async () => {
    expect((await api.call("GET", `${B}/storage`)).body).toMatchObject({ enabled: true, force_path_style: true, s3_endpoint: `${emu.url}/s3/br-alice-main-100001` });
    expect((await api.call("GET", `${B}/ai_gateway`)).body).toMatchObject({ enabled: true, base_url: "https://br-alice-main-100001.ai.us-east-2.aws.emulator.invalid" });
    const acme = client(emu, KEYS.acme);
    const storage = await acme.call<{ reason: string }>("GET", "/projects/acme-site-300003/branches/br-acme-main-300003/storage");
    expect([storage.status, storage.body.reason]).toEqual([404, "region_unavailable"]);
    const gateway = await acme.call<{ reason: string }>("GET", "/projects/acme-site-300003/branches/br-acme-main-300003/ai_gateway");
    expect([gateway.status, gateway.body.reason]).toEqual([404, "ai_gateway_unavailable"]);
    const missing = await api.call<{ reason: string }>("GET", `/projects/${P}/branches/br-missing-000000/storage`);
    expect([missing.status, missing.body.reason]).toEqual([404, "branch_not_found"]);
  });

  it("creates, lists and deletes buckets; keeps an unknown access level; refuses a duplicate", async () => {
    const created = await api.call<{ bucket: { name: string; access_level: string } }>("POST", `${B}/buckets`, { name: "media", access_level: "public_read_write" });
    expect([created.status, created.body.bucket.access_level]).toEqual([201, "public_read_write"]);
    expect((await api.call("POST", `${B}/buckets`, { name: "media" })).status).toBe(409);
    expect((await api.call("POST", `${B}/buckets`, { name: "a/b" })).status).toBe(400);
    expect((await api.call("DELETE", `${B}/buckets/media`)).status).toBe(204);
    expect((await api.call("DELETE", `${B}/buckets/media`)).status).toBe(404);
  });

  it("lists objects with prefix and delimiter, and pages with next_cursor", async () => {
    const folders = await api.call<{ folders: string[]; objects: { key: string }[]; is_truncated: boolean }>("GET", `${B}/buckets/uploads/objects?delimiter=/`);
    expect(folders.body.folders).toEqual(["docs/"]);
    expect(folders.body.objects.map((o) => o.key)).toEqual(["a.txt"]);
    const page = await api.call<{ objects: { key: string }[]; is_truncated: boolean; next_cursor: string }>("GET", `${B}/buckets/uploads/objects?prefix=docs/&limit=1`);
    expect([page.body.objects.map((o) => o.key), page.body.is_truncated]).toEqual([["docs/b.txt"], true]);
    const rest = await api.call<{ objects: { key: string }[]; is_truncated: boolean }>("GET", `${B}/buckets/uploads/objects?prefix=docs/&limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect([rest.body.objects.map((o) => o.key), rest.body.is_truncated]).toEqual([["docs/c.txt"], false]);
  });

  it("creates a credential with secrets once, lists metadata only, reveals, rotates and revokes it", async () => {
    const created = await api.call<{ token_id: string; api_token: string; s3_secret_access_key: string; token_id_short: string }>("POST", `${B}/credentials`, { scopes: ["storage:read"], principal_type: "user", name: "ci" });
    expect(created.status).toBe(201);
    expect(created.body.token_id).toMatch(/^nak_live_[0-9a-f]{32}$/);
    expect(created.body.api_token.startsWith(`nt_live_${created.body.token_id_short}_`)).toBe(true);
    expect(created.body.s3_secret_access_key).toMatch(/^nsk_live_[0-9a-f]{64}$/);
    const list = await api.call("GET", `${B}/credentials`);
    expect(JSON.stringify(list.body)).not.toContain(created.body.api_token);
    const revealed = await api.call<{ api_token: string }>("POST", `${B}/credentials/${created.body.token_id}/reveal`);
    expect(revealed.body.api_token).toBe(created.body.api_token);
    const rotated = await api.call<{ api_token: string }>("POST", `${B}/credentials/${created.body.token_id}/rotate`);
    expect(rotated.body.api_token).not.toBe(created.body.api_token);
    expect((await api.call("DELETE", `${B}/credentials/${created.body.token_id}`)).status).toBe(204);
    expect((await api.call("DELETE", `${B}/credentials/${created.body.token_id}`)).status).toBe(204);
    expect((await api.call("POST", `${B}/credentials/${created.body.token_id}/reveal`)).status).toBe(404);
    expect((await api.call("POST", `${B}/credentials`, { scopes: ["storage:read"], principal_type: "service" })).status).toBe(400);
  });

  it("enables branch auth once (409 after), reads it, manages providers, users and the email provider, then disables it", async () => {
    expect((await api.call("GET", `${B}/auth`)).status).toBe(404);
    const enabled = await api.call<{ schema_name: string; table_name: string; base_url: string }>("POST", `${B}/auth`, { auth_provider: "better_auth" });
    expect([enabled.status, enabled.body.schema_name, enabled.body.table_name]).toEqual([201, "svc_auth", "users_sync"]);
    expect((await api.call<{ code: string }>("POST", `${B}/auth`, { auth_provider: "better_auth" })).body.code).toBe("already_enabled");
    expect((await api.call("GET", `${B}/auth`)).body).toMatchObject({ auth_provider: "better_auth", db_name: "neondb", branch_id: "br-alice-main-100001" });
    expect((await api.call("POST", `${B}/auth/oauth_providers`, { id: "google" })).body).toEqual({ id: "google", type: "shared" });
    expect((await api.call("POST", `${B}/auth/oauth_providers`, { id: "google" })).status).toBe(409);
    expect((await api.call("POST", `${B}/auth/oauth_providers`, { id: "github", microsoft_tenant_id: "t" })).status).toBe(400);
    expect((await api.call("PATCH", `${B}/auth/oauth_providers/google`, { client_id: "cid", client_secret: "cs" })).body).toMatchObject({ type: "standard", client_id: "cid" });
    expect((await api.call("POST", `${B}/auth/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })).status).toBe(201);
    expect((await api.call("GET", `${B}/auth/domains`)).body).toEqual({ domains: [{ domain: "https://app.example.com", auth_provider: "better_auth" }] });
    const user = await api.call<{ id: string }>("POST", `${B}/auth/users`, { email: "u@example.com" });
    expect(user.status).toBe(201);
    expect((await api.call("POST", `${B}/auth/users`, { email: "u@example.com" })).status).toBe(409);
    expect((await api.call("PATCH", `${B}/auth/email_provider`, { host: "smtp.example.com", port: 587, password: "pw" })).body).toMatchObject({ host: "smtp.example.com", password: "" });
    expect((await api.call("DELETE", `${B}/auth/users/${user.body.id}`)).status).toBe(200);
    expect((await api.call("DELETE", `${B}/auth`, {})).status).toBe(200);
    expect((await api.call("DELETE", `${B}/auth`)).status).toBe(404);
  });

  it("enables the data API per database (409 twice), updates settings with 201, and disables it", async () => {
    const path = `${B}/data-api/neondb`;
    expect((await api.call("GET", path)).status).toBe(404);
    expect((await api.call("POST", path, { auth_provider: "neon_auth" })).status).toBe(422);
    const created = await api.call<{ url: string }>("POST", path, { settings: { db_schemas: ["public"] } });
    expect(created.body.url).toMatch(/^https:\/\/ep-alice-main-100001\.apirest\.us-east-2\.aws\.emulator\.invalid\/neondb\/rest\/v1$/);
    expect((await api.call<{ code: string }>("POST", path)).body.code).toBe("already_enabled");
    expect((await api.call("PATCH", path, { settings: { db_max_rows: 100 } })).status).toBe(201);
    expect((await api.call("GET", path)).body).toMatchObject({ status: "ready", settings: { db_schemas: ["public"], db_max_rows: 100 } });
    expect((await api.call("DELETE", path)).status).toBe(200);
    expect((await api.call("GET", `${B}/data-api/nodb`)).status).toBe(404);
  });
});
