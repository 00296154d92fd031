import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresBackend } from "../../../src/emulator/postgres/backend.js";
import { call, query, startHarness, testBackend, type Harness } from "./harness.js";

let backend: PostgresBackend;
let h: Harness;

beforeAll(async () => {
  backend = testBackend();
  h = await startHarness(backend, { storageLimitBytes: 1_048_576 });
});
afterAll(async () => {
  await h?.close();
  await backend?.stop();
});

describe("the unclaimed storage limit", () => {
  it("makes a database over the limit read-only until a claim lifts it", async () => {
    const created = await call(`${h.url}/api/v1/database`, "POST", { ref: "storage" });
    const id = String(created.body["id"]);
    const direct = String((created.body["emulator"] as Record<string, unknown>)["direct_connection_string"]);
    await query(direct, "CREATE TABLE t (v text)");
    const before = String(created.body["updated_at"]);
    h.clock.advance(10);

    await h.service.checkStorage();

    const record = (await call(`${h.url}/api/v1/database/${id}`, "GET")).body;
    const emulator = record["emulator"] as Record<string, unknown>;
    expect(emulator["read_only"]).toBe(true);
    expect(String(emulator["read_only_reason"])).toMatch(/^storage limit exceeded: \d+\.\d MB used, limit 1 MB$/);
    expect(record["updated_at"]).not.toBe(before);
    await expect(query(direct, "INSERT INTO t VALUES ('x')")).rejects.toMatchObject({ code: "25006" });
    expect(await query(String(record["connection_string"]), "SELECT count(*)::int AS n FROM t")).toEqual([{ n: 0 }]);

    h.service.startTransfer(id, { owner: { kind: "personal" }, projectName: "keep", principalId: "user-1" });
    h.clock.advance(1000);
    const claimed = (await call(`${h.url}/api/v1/database/${id}`, "GET")).body;
    expect((claimed["emulator"] as Record<string, unknown>)["read_only"]).toBe(false);
    await query(direct, "INSERT INTO t VALUES ('x')");
    expect(await query(direct, "SELECT count(*)::int AS n FROM t")).toEqual([{ n: 1 }]);
  });

  it("leaves databases under the limit writable", async () => {
    const roomy = await startHarness(backend, { storageLimitBytes: 1_000_000_000 });
    try {
      const created = await call(`${roomy.url}/api/v1/database`, "POST", { ref: "roomy" });
      await roomy.service.checkStorage();
      const record = (await call(`${roomy.url}/api/v1/database/${String(created.body["id"])}`, "GET")).body;
      expect((record["emulator"] as Record<string, unknown>)["read_only"]).toBe(false);
      await query(String(record["connection_string"]), "CREATE TABLE ok (v int)");
    } finally {
      await roomy.close();
    }
  });
});
