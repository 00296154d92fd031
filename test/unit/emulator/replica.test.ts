import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { createReplica } from "../../../src/emulator/replica.js";

const KEY = "svc_replica_test_key_000000000000000001";
const encoder = new TextEncoder();
const seed = {
  version: 1 as const,
  users: [{ email: "owner@example.test", plan: "scale" as const, api_keys: [{ name: "k", key: KEY, admin: true }] }],
  projects: [{ owner: "owner@example.test", name: "shop", branches: [{ name: "main", default: true }] }],
};

describe("a replica", () => {
  it("answers the management API inside the process, with the seeded project and its own key only", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const project = await api.getProject({ projectId: replica.projectId });
    expect(project.name).toBe("shop");
    const stranger = createPlatformApi({ apiKey: "svc_someone_else_000000000000000000001", apiHost: replica.apiHost, fetch: replica.fetch });
    await expect(stranger.getProject({ projectId: replica.projectId })).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a request for any other origin instead of sending it", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    await expect(replica.fetch("http://127.0.0.1:9/api/v2/projects")).rejects.toThrow(/answers http:\/\/replica\.invalid only, not http:\/\/127\.0\.0\.1:9/);
  });

  it("refuses a call whose signal has aborted, and applies nothing of it", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const ref = { projectId: replica.projectId, branchId: (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "" };
    const url = `${replica.apiHost}/projects/${ref.projectId}/branches/${ref.branchId}/buckets`;
    const init = { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ name: "late", access_level: "private" }) };
    await expect(replica.fetch(url, { ...init, signal: AbortSignal.abort(new Error("stopped by the caller")) })).rejects.toThrow("stopped by the caller");
    expect(await api.listBuckets(ref)).toEqual([]);
    const answered = await replica.fetch(url, init);
    expect(answered.status).toBe(201);
    expect((await api.listBuckets(ref)).map((b) => b.name)).toEqual(["late"]);
  });

  it("checks a mutation's media type as the platform does: a JSON body sent as text is refused, nothing applied", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const ref = { projectId: replica.projectId, branchId: (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "" };
    const url = `${replica.apiHost}/projects/${ref.projectId}/branches/${ref.branchId}/buckets`;
    const body = JSON.stringify({ name: "as-text", access_level: "private" });
    const refused = await replica.fetch(url, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "text/plain" }, body });
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { message: string }).message).toBe('Content-Type "text/plain" is not accepted here; send application/json');
    expect(await api.listBuckets(ref)).toEqual([]);
  });

  it("refuses a JSON body over the platform's limit by its length, before the route reads it", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const ref = { projectId: replica.projectId, branchId: (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "" };
    const url = `${replica.apiHost}/projects/${ref.projectId}/branches/${ref.branchId}/buckets`;
    const body = JSON.stringify({ name: "big", access_level: "private", padding: "x".repeat(1024 * 1024) });
    const refused = await replica.fetch(url, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body });
    expect(refused.status).toBe(413);
    expect(await api.listBuckets(ref)).toEqual([]);
  });

  it("answers the client's sender as its fetch does: the same statuses and bodies, the same refusals", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const ref = { projectId: replica.projectId, branchId: (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "" };
    const url = `${replica.apiHost}/projects/${ref.projectId}/branches/${ref.branchId}/buckets`;
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    const created = await replica.send({ method: "POST", url, headers, body: JSON.stringify({ name: "sent", access_level: "private" }) });
    expect(created.status).toBe(201);
    expect(created.header("content-type")).toMatch(/^application\/json/);
    expect((JSON.parse(created.text) as { bucket: { name: string } }).bucket.name).toBe("sent");
    const asText = await replica.send({ method: "POST", url, headers: { ...headers, "content-type": "text/plain" }, body: JSON.stringify({ name: "as-text", access_level: "private" }) });
    expect(asText.status).toBe(415);
    const tooLarge = await replica.send({ method: "POST", url, headers, body: encoder.encode(JSON.stringify({ name: "big", access_level: "private", padding: "x".repeat(1024 * 1024) })) });
    expect(tooLarge.status).toBe(413);
    expect((await api.listBuckets(ref)).map((b) => b.name)).toEqual(["sent"]);
    await expect(replica.send({ method: "GET", url: "http://127.0.0.1:9/api/v2/projects", headers })).rejects.toThrow(/answers http:\/\/replica\.invalid only/);
    await expect(replica.send({ method: "POST", url, headers, body: JSON.stringify({ name: "late", access_level: "private" }), signal: AbortSignal.abort(new Error("stopped by the caller")) })).rejects.toThrow("stopped by the caller");
    expect((await api.listBuckets(ref)).map((b) => b.name)).toEqual(["sent"]);
  });

  it.each([
    ["a deployment sent as JSON", "POST", "/functions/fn/deployments", "application/json", 415, 'Content-Type "application/json" is not accepted here; send multipart/form-data'],
    ["a trigger update sent as text", "PATCH", "/triggers/trg-1", "text/plain", 415, 'Content-Type "text/plain" is not accepted here; send application/json'],
    ["a body sent to a route that does not exist", "POST", "/no-such-route", "text/plain", 404, "no route POST"],
  ])("checks the media type of %s only on an emulated route", async (_name, method, tail, type, status, message) => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const branchId = (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "";
    const url = `${replica.apiHost}/projects/${replica.projectId}/branches/${branchId}${tail}`;
    const answer = await replica.send({ method, url, headers: { authorization: `Bearer ${KEY}`, "content-type": type }, body: "{}" });
    expect(answer.status).toBe(status);
    expect((JSON.parse(answer.text) as { message: string }).message).toContain(message);
  });

  it("holds only the new seed once reseeded, and its key still answers", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const before = { projectId: replica.projectId, branchId: (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "" };
    await api.createBucket({ ...before, name: "uploads", access_level: "private" });
    await replica.reseed({ ...seed, projects: [{ owner: "owner@example.test", name: "other", branches: [{ name: "main", default: true }] }] });
    expect((await api.getProject({ projectId: replica.projectId })).name).toBe("other");
    await expect(api.getProject({ projectId: before.projectId })).rejects.toMatchObject({ status: 404 });
    const branchId = (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "";
    expect(await api.listBuckets({ projectId: replica.projectId, branchId })).toEqual([]);
  });

  it("loads a reseed as its caller built it, without the seed file's parse that createReplica's seed goes through", async () => {
    const typed = { ...seed, projects: [{ owner: "owner@example.test", id: "Shop_2", name: "shop", branches: [{ name: "main", default: true }] }] };
    expect(() => createReplica({ seed: typed, apiKey: KEY })).toThrow(/invalid emulator seed: projects\[0\]\.id/);
    const replica = createReplica({ seed, apiKey: KEY });
    await replica.reseed(typed);
    expect(replica.projectId).toBe("Shop_2");
  });

  // Hostile row: live state the seed file's parse would never see (reseeds skip it since 012e127).
  it("holds hostile live names as given on a reseed: __proto__, constructor, bidi and control characters, a 256 KiB name", async () => {
    const names = ["__proto__", "constructor", "toString", "inv\u202Egpj.exe", "bell\u0007", "x".repeat(256 * 1024)];
    const replica = createReplica({ seed, apiKey: KEY });
    await replica.reseed({ ...seed, projects: [{ owner: "owner@example.test", name: "shop", branches: [{ name: "main", default: true, buckets: names.map((name) => ({ name })) }] }] });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const branchId = (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "";
    expect((await api.listBuckets({ projectId: replica.projectId, branchId })).map((b) => [b.name, b.access_level])).toEqual(
      expect.arrayContaining(names.map((name) => [name, "private"])),
    );
    expect((await api.listBuckets({ projectId: replica.projectId, branchId })).length).toBe(names.length);
    const plain: Record<string, unknown> = {};
    expect([plain.name, plain.access_level, Object.getPrototypeOf(plain)]).toEqual([undefined, undefined, Object.prototype]);
  });

  it("keeps what one replica applied away from another", async () => {
    const on = async (replica: ReturnType<typeof createReplica>) => {
      const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
      const branchId = (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "";
      return { api, ref: { projectId: replica.projectId, branchId } };
    };
    const a = await on(createReplica({ seed, apiKey: KEY }));
    const b = await on(createReplica({ seed, apiKey: KEY }));
    await a.api.createBucket({ ...a.ref, name: "uploads", access_level: "private" });
    expect((await a.api.listBuckets(a.ref)).map((bucket) => bucket.name)).toEqual(["uploads"]);
    expect(await b.api.listBuckets(b.ref)).toEqual([]);
  });

  it("answers as many requests in flight as a verification sends by default (128) each with its own status, body and request id (the answer methods are shared, a request's state is its own), whatever the case of their header names", async () => {
    const replica = createReplica({ seed, apiKey: KEY });
    const api = createPlatformApi({ apiKey: KEY, apiHost: replica.apiHost, fetch: replica.fetch });
    const branchId = (await api.listBranches({ projectId: replica.projectId }))[0]?.id ?? "";
    const buckets = `${replica.apiHost}/projects/${replica.projectId}/branches/${branchId}/buckets`;
    // Names as the platform client spells them, and in the cases a replica's table of known names does not hold.
    const spelled = (i: number, name: string): string => [name, name.toUpperCase(), name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`)][i % 3] ?? name;
    const headers = (i: number, json = false): Record<string, string> => ({ [spelled(i, "authorization")]: `Bearer ${KEY}`, [spelled(i, "x-request-id")]: `req-${i}`, ...(json ? { [spelled(i, "content-type")]: "application/json" } : {}) });
    const kinds = [
      (i: number) => ({ url: `${replica.apiHost}/projects/${replica.projectId}`, init: { headers: headers(i) }, status: 200, holds: '"name":"shop"' }),
      (i: number) => ({ url: `${replica.apiHost}/projects/${replica.projectId}/branches/br-missing-${i}`, init: { headers: headers(i) }, status: 404, holds: `br-missing-${i}` }),
      (i: number) => ({ url: buckets, init: { method: "POST", headers: headers(i, true), body: JSON.stringify({ name: `b${i}`, access_level: "private" }) }, status: 201, holds: `"name":"b${i}"` }),
      (i: number) => ({ url: buckets, init: { method: "POST", headers: headers(i, true), body: "{not json" }, status: 400, holds: '"code":"invalid_request"' }),
    ];
    const requests = Array.from({ length: 128 }, (_, i) => (kinds[i % kinds.length] ?? kinds[0])?.(i));
    const answers = await Promise.all(requests.map(async (r) => (r === undefined ? undefined : replica.fetch(r.url, r.init))));
    for (const [i, answer] of answers.entries()) {
      const asked = requests[i];
      expect(answer?.status, `request ${i}`).toBe(asked?.status);
      expect(answer?.headers.get("x-request-id"), `request ${i}`).toBe(`req-${i}`);
      expect(await answer?.text(), `request ${i}`).toContain(asked?.holds);
    }
  });
});
