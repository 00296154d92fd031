import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresBackend } from "../../../src/emulator/postgres/backend.js";
import { call, query, startHarness, testBackend, type Harness } from "./harness.js";

let backend: PostgresBackend;
let h: Harness;

beforeAll(async () => {
  backend = testBackend();
  h = await startHarness(backend);
});
afterAll(async () => {
  await h?.close();
  await backend?.stop();
});

const HOUR = 3_600_000;

describe("creating a claimable database", () => {
  it("answers 201 with a record whose pooled and direct URLs both connect and run SQL", async () => {
    const res = await call(`${h.url}/api/v1/database`, "POST", { ref: "api-test" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const record = res.body as Record<string, unknown> & { emulator: Record<string, unknown> };
    expect(record.status).toBe("UNCLAIMED");
    expect(record.svc_project_id).toMatch(/^[a-z0-9-]{1,60}$/);
    expect(record.claim_url).toBe(`${h.url}/claim/${String(record.id)}`);
    expect(Date.parse(String(record.expires_at)) - Date.parse(String(record.created_at))).toBe(72 * HOUR);
    expect(record.emulator.database_name).toBe(`svc_claim_${String(record.id).replaceAll("-", "")}`);
    const pooled = String(record.connection_string);
    const direct = String(record.emulator.direct_connection_string);
    expect(pooled).not.toBe(direct);
    await query(direct, "CREATE TABLE notes (id serial PRIMARY KEY, body text); INSERT INTO notes (body) VALUES ('hello')");
    expect(await query(pooled, "SELECT body FROM notes")).toEqual([{ body: "hello" }]);
    const [role] = await query(direct, "SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls, rolreplication FROM pg_roles WHERE rolname = current_user");
    expect(role).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolbypassrls: false, rolreplication: false });
  });

  it("takes the referrer from the referrer query parameter when the body has none", async () => {
    const res = await call(`${h.url}/api/v1/database?referrer=from-query`, "POST", undefined, "");
    expect(res.status).toBe(201);
    expect((res.body["emulator"] as Record<string, unknown>)["ref"]).toBe("from-query");
  });

  it("gives server-assigned ids that are UUID v7 and ordered by creation time", async () => {
    const first = await call(`${h.url}/api/v1/database`, "POST", { ref: "order" });
    h.clock.advance(5);
    const second = await call(`${h.url}/api/v1/database`, "POST", { ref: "order" });
    const ids = [String(first.body["id"]), String(second.body["id"])];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it("does not let one database's role connect to another claimable database", async () => {
    const a = (await call(`${h.url}/api/v1/database`, "POST", { ref: "iso" })).body as { emulator: { direct_connection_string: string; database_name: string } };
    const b = (await call(`${h.url}/api/v1/database`, "POST", { ref: "iso" })).body as { emulator: { database_name: string } };
    const intruder = a.emulator.direct_connection_string.replace(`/${a.emulator.database_name}?`, `/${b.emulator.database_name}?`);
    await expect(query(intruder, "SELECT 1")).rejects.toMatchObject({ code: "42501" });
  });
});

describe("the seed's error responses", () => {
  const cases: Array<{ name: string; path: string; method: string; body?: unknown; raw?: string; status: number; code: string; message: string }> = [
    { name: "a missing ref", path: "/api/v1/database", method: "POST", body: {}, status: 400, code: "missing_referrer", message: "Missing referrer" },
    { name: "an empty body", path: "/api/v1/database", method: "POST", raw: "", status: 400, code: "missing_referrer", message: "Missing referrer" },
    { name: "a blank ref", path: "/api/v1/database", method: "POST", body: { ref: "   " }, status: 400, code: "missing_referrer", message: "Missing referrer" },
    { name: "invalid JSON", path: "/api/v1/database", method: "POST", raw: "{\"ref\":", status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "a JSON array", path: "/api/v1/database", method: "POST", raw: "[]", status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "JSON null", path: "/api/v1/database", method: "POST", raw: "null", status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "a numeric ref", path: "/api/v1/database", method: "POST", body: { ref: 5 }, status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "a string enable_logical_replication", path: "/api/v1/database", method: "POST", body: { ref: "x", enable_logical_replication: "yes" }, status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "a malformed client-chosen id", path: "/api/v1/database/not-a-uuid", method: "POST", body: { ref: "x" }, status: 500, code: "create_failed", message: "Failed to create the database." },
    { name: "GET of a malformed id", path: "/api/v1/database/not-a-uuid", method: "GET", status: 400, code: "database_not_found", message: "Database not found" },
    { name: "GET of an unknown id", path: "/api/v1/database/0197a3c2-0000-7000-8000-000000000000", method: "GET", status: 400, code: "database_not_found", message: "Database not found" },
  ];
  it.each(cases)("answers $name with $status $code", async ({ path, method, body, raw, status, code, message }) => {
    const res = await call(`${h.url}${path}`, method, body, raw);
    expect(res.status).toBe(status);
    expect(res.body["code"]).toBe(code);
    expect(res.body["message"]).toBe(message);
    expect(typeof res.body["request_id"]).toBe("string");
    expect(res.headers.get("cache-control")).toBe("no-store");
    if (code === "missing_referrer") expect(String(res.body["hint"])).toMatch(/non-empty "ref"/);
  });

  it("answers an unknown method with 405 and Allow", async () => {
    const res = await call(`${h.url}/api/v1/database`, "DELETE");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("creating with a client-chosen id", () => {
  it("stores the id lower-case and replays 200 with the unchanged record", async () => {
    const id = "0197A3C2-1111-7000-8000-00000000ABCD";
    const first = await call(`${h.url}/api/v1/database/${id}`, "POST", { ref: "first" });
    expect(first.status).toBe(201);
    expect(first.body["id"]).toBe(id.toLowerCase());
    h.clock.advance(1000);
    const replay = await call(`${h.url}/api/v1/database/${id.toLowerCase()}`, "POST", { ref: "second", enable_logical_replication: true });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it("makes exactly one database for ten concurrent creates with one id", async () => {
    const id = "0197a3c2-2222-7000-8000-000000000010";
    const results = await Promise.all(Array.from({ length: 10 }, () => call(`${h.url}/api/v1/database/${id}`, "POST", { ref: "race" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body["connection_string"])).size).toBe(1);
    const direct = String((results[0]?.body["emulator"] as Record<string, unknown> | undefined)?.["direct_connection_string"]);
    const rows = await query(direct, `SELECT count(*)::int AS n FROM pg_database WHERE datname = 'svc_claim_${id.replaceAll("-", "")}'`);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe("expiry", () => {
  it("drops the database and role 72 hours after creation and answers like an unknown id", async () => {
    const created = await call(`${h.url}/api/v1/database`, "POST", { ref: "expiry" });
    const id = String(created.body["id"]);
    const direct = String((created.body["emulator"] as Record<string, unknown>)["direct_connection_string"]);
    const name = `svc_claim_${id.replaceAll("-", "")}`;
    await query(direct, "SELECT 1");
    h.clock.advance(72 * HOUR - 1);
    expect((await call(`${h.url}/api/v1/database/${id}`, "GET")).status).toBe(200);
    h.clock.advance(1);
    const gone = await call(`${h.url}/api/v1/database/${id}`, "GET");
    expect(gone.status).toBe(400);
    expect(gone.body["message"]).toBe("Database not found");
    await expect(query(direct, "SELECT 1")).rejects.toThrow();
    const witness = await call(`${h.url}/api/v1/database`, "POST", { ref: "witness" });
    const witnessUrl = String((witness.body["emulator"] as Record<string, unknown>)["direct_connection_string"]);
    expect(await query(witnessUrl, `SELECT (SELECT count(*)::int FROM pg_database WHERE datname = '${name}') AS dbs, (SELECT count(*)::int FROM pg_roles WHERE rolname = '${name}') AS roles`)).toEqual([{ dbs: 0, roles: 0 }]);
    const reuse = await call(`${h.url}/api/v1/database/${id}`, "POST", { ref: "again" });
    expect(reuse.status).toBe(500);
    expect(reuse.body["code"]).toBe("create_failed");
  });

  it("lets a CLAIMING database outlive its deadline and complete the transfer", async () => {
    const created = await call(`${h.url}/api/v1/database`, "POST", { ref: "late-claim" });
    const id = String(created.body["id"]);
    h.clock.advance(72 * HOUR - 500);
    h.service.startTransfer(id, { owner: { kind: "organization", orgId: "org-acme" }, projectName: "late", principalId: "user-1" });
    h.clock.advance(600);
    const during = await call(`${h.url}/api/v1/database/${id}`, "GET");
    expect(during.body["status"]).toBe("CLAIMING");
    h.clock.advance(1000);
    const after = await call(`${h.url}/api/v1/database/${id}`, "GET");
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ status: "CLAIMED", connection_string: null, expires_at: null });
    expect((after.body["emulator"] as Record<string, unknown>)["org_id"]).toBe("org-acme");
    expect(h.adoptions.map((a) => a.databaseId)).toContain(id);
  });
});
