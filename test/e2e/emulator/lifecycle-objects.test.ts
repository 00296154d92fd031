import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ObjectListResponseSchema, PresignResponseSchema, ProjectListResponseSchema, ProjectResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED } from "./helpers.js";

const DAY = 24 * 3600 * 1000;
const ALICE = "/projects/alice-app-100001";
const BUCKET = `${ALICE}/branches/br-alice-main-100001/buckets/uploads`;

describe("project delete, recovery within 7 days and purge", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: new Date("2026-06-01T00:00:00Z") });
  });
  beforeEach(() => emu.state.reset());
  afterAll(() => emu.close());

  it("hides a deleted project, lists it with recoverable=true and recovers it on day 6 with the same ids and passwords", async () => {
    const alice = client(emu, KEYS.alice);
    const before = await alice.call<{ uri: string }>("GET", `${ALICE}/connection_uri?database_name=neondb&role_name=neondb_owner`);
    const deleted = await alice.call("DELETE", ALICE);
    expect(deleted.status).toBe(200);
    ProjectResponseSchema.parse(deleted.body);
    expect((await alice.call("GET", ALICE)).status).toBe(404);
    expect((await alice.call("GET", `${ALICE}/branches`)).status).toBe(404);
    const active = await alice.call<{ projects: { id: string }[] }>("GET", "/projects");
    expect(active.body.projects.map((p) => p.id)).not.toContain("alice-app-100001");
    const recoverable = await alice.call("GET", "/projects?recoverable=true");
    const listed = ProjectListResponseSchema.parse(recoverable.body).projects;
    expect(listed.map((p) => [p.id, p.recoverable_until])).toEqual([["alice-app-100001", "2026-06-08T00:00:00.000Z"]]);
    emu.clock.advance(6 * DAY);
    const recovered = await alice.call("POST", `${ALICE}/recover`);
    expect(recovered.status).toBe(200);
    const after = await alice.call<{ uri: string }>("GET", `${ALICE}/connection_uri?database_name=neondb&role_name=neondb_owner`);
    expect(after.body.uri).toBe(before.body.uri);
    const endpoint = await alice.call<{ endpoint: { current_state: string } }>("GET", `${ALICE}/endpoints/ep-alice-main-100001`);
    expect(endpoint.body.endpoint.current_state).toBe("idle");
  });

  it("purges the project after 7 days: recover on day 8 answers 404 and it leaves the recoverable list", async () => {
    const alice = client(emu, KEYS.alice);
    await alice.call("DELETE", ALICE);
    emu.clock.advance(8 * DAY);
    const res = await alice.call<{ code: string }>("POST", `${ALICE}/recover`);
    expect(res.status).toBe(404);
    const recoverable = await alice.call<{ projects: unknown[] }>("GET", "/projects?recoverable=true");
    expect(recoverable.body.projects).toEqual([]);
  });

  it("keeps a deleted project's custom domains reserved until the purge releases them", async () => {
    const alice = client(emu, KEYS.alice);
    const bobDomains = "/projects/bob-app-200002/branches/br-bob-main-200002/custom-domains";
    const body = { domain: "shop.example.com", entity_type: "function" };
    expect((await alice.call("POST", `${ALICE}/branches/br-alice-main-100001/custom-domains`, { ...body, entity_id: "hello" })).status).toBe(201);
    await alice.call("DELETE", ALICE);
    expect((await client(emu, KEYS.bob).call("POST", bobDomains, { ...body, entity_id: "api" })).status).toBe(409);
    emu.clock.advance(7 * DAY);
    expect((await client(emu, KEYS.bob).call("POST", bobDomains, { ...body, entity_id: "api" })).status).toBe(201);
  });

  it.each([
    ["recover of an active project", "POST", `${ALICE}/recover`, KEYS.alice, 409],
    ["delete by another account", "DELETE", ALICE, KEYS.bob, 404],
    ["delete of an unknown project", "DELETE", "/projects/no-such-999999", KEYS.alice, 404],
  ])("answers %s with %i", async (_case, method, path, key, status) => {
    expect((await client(emu, key).call(method, path)).status).toBe(status);
  });

  it("answers 410 project_deleted to a bucket create on a deleted project", async () => {
    const alice = client(emu, KEYS.alice);
    await alice.call("DELETE", ALICE);
    const res = await alice.call<{ code: string }>("POST", `${ALICE}/branches/br-alice-main-100001/buckets`, { name: "late" });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe("project_deleted");
  });

  it("refuses project delete while an operation holds the project lock (423)", async () => {
    emu.state.lockProject("alice-app-100001", 60_000);
    const res = await client(emu, KEYS.alice).call<{ code: string }>("DELETE", ALICE);
    expect(res.status).toBe(423);
  });
});

describe("bucket objects and presigned URLs", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, limits: { objectBytes: 1024 } });
  });
  beforeEach(() => emu.state.reset());
  afterAll(() => emu.close());

  async function presign(operation: "upload" | "download", key: string, extra: Record<string, unknown> = {}): Promise<{ url: string; method: string; headers?: Record<string, string> }> {
    const res = await client(emu, KEYS.alice).call("POST", `${BUCKET}/objects/${encodeURIComponent(key)}/presign`, { operation, ...extra });
    expect(res.status).toBe(200);
    return PresignResponseSchema.parse(res.body);
  }

  it("uploads through a presigned URL, lists, downloads through the API and a presigned URL, then deletes", async () => {
    const put = await presign("upload", "img/cat.txt", { content_type: "text/plain" });
    expect(put.method).toBe("PUT");
    expect(put.url.startsWith(`${emu.url}/__emulator/objects/`)).toBe(true);
    const uploaded = await fetch(put.url, { method: "PUT", headers: { "content-type": "text/plain" }, body: "meow" });
    expect(uploaded.status).toBe(200);
    const alice = client(emu, KEYS.alice);
    const list = ObjectListResponseSchema.parse((await alice.call("GET", `${BUCKET}/objects?prefix=img/`)).body);
    expect(list.objects.map((o) => [o.key, o.size, o.etag])).toEqual([["img/cat.txt", 4, '"4a4be40c96ac6314e91d93f38043a634"']]);
    const download = await fetch(`${emu.apiHost}${BUCKET}/objects/${encodeURIComponent("img/cat.txt")}/download`, { headers: { authorization: `Bearer ${KEYS.alice}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get("etag")).toBe('"4a4be40c96ac6314e91d93f38043a634"');
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-disposition")).toContain("cat.txt");
    expect(await download.text()).toBe("meow");
    const get = await presign("download", "img/cat.txt");
    expect(await (await fetch(get.url)).text()).toBe("meow");
    expect((await alice.call("DELETE", `${BUCKET}/objects/${encodeURIComponent("img/cat.txt")}`)).status).toBe(204);
    expect((await alice.call("DELETE", `${BUCKET}/objects/${encodeURIComponent("img/cat.txt")}`)).status).toBe(404);
    expect((await fetch(get.url)).status).toBe(404);
  });

  it("never writes a presigned token into the request log", async () => {
    const put = await presign("upload", "log.txt");
    await fetch(put.url, { method: "PUT", body: "x" });
    const token = put.url.slice(put.url.lastIndexOf("/") + 1);
    const paths = emu.state.requests().map((r) => r.path);
    expect(paths).toContain("/__emulator/objects/[redacted]");
    expect(paths.some((p) => p.includes(token))).toBe(false);
  });

  it("deletes by prefix and counts what it deleted", async () => {
    const res = await client(emu, KEYS.alice).call<{ deleted: number }>("DELETE", `${BUCKET}/objects-by-prefix?prefix=docs/`);
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(2);
  });

  it.each([["", "no prefix"], ["?prefix=", "an empty prefix"], ["?prefix=docs", "a prefix without a trailing slash"]])("answers 400 to delete-by-prefix with %s (%s)", async (query) => {
    const res = await client(emu, KEYS.alice).call<{ code: string }>("DELETE", `${BUCKET}/objects-by-prefix${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_request");
  });

  it("refuses a presigned upload with the wrong Content-Type, an altered token or after expiry (403)", async () => {
    const put = await presign("upload", "x.txt", { content_type: "text/plain", expires_in_seconds: 60 });
    expect((await fetch(put.url, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(403);
    const altered = put.url.replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
    expect((await fetch(altered, { method: "PUT", headers: { "content-type": "text/plain" }, body: "x" })).status).toBe(403);
    const download = await presign("download", "a.txt");
    expect((await fetch(download.url, { method: "PUT", body: "x" })).status).toBe(403);
    emu.clock.advance(61_000);
    const late = await fetch(put.url, { method: "PUT", headers: { "content-type": "text/plain" }, body: "x" });
    expect(late.status).toBe(403);
    expect(((await late.json()) as { message: string }).message).toContain("expired");
  });

  it("answers 413 to an upload over the object limit and keeps serving", async () => {
    const put = await presign("upload", "big.bin");
    const res = await fetch(put.url, { method: "PUT", body: new Uint8Array(4096) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
    expect((await client(emu, KEYS.alice).call("GET", `${BUCKET}/objects`)).status).toBe(200);
  });

  it("reads a seeded object without a body as zero bytes of its size", async () => {
    const res = await fetch(`${emu.apiHost}${BUCKET}/objects/a.txt/download`, { headers: { authorization: `Bearer ${KEYS.alice}` } });
    expect(res.headers.get("content-length")).toBe("3");
  });

  it("hides another account's objects with 404", async () => {
    const res = await client(emu, KEYS.bob).call("POST", `${BUCKET}/objects/a.txt/presign`, { operation: "download" });
    expect(res.status).toBe(404);
  });
});
