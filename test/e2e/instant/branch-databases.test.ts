import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createBranchDatabases, physicalName } from "../../../src/emulator/postgres/branch-databases.js";
import { managementCall, query, testBackend } from "./harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ realDatabases: true, timings: { opSchedulingMs: 0, opRunMs: 0 } });
}, 120_000);
afterAll(async () => {
  await emu?.close();
});

function api(method: string, path: string, body?: unknown): ReturnType<typeof managementCall> {
  return managementCall(emu, method, path, body);
}

async function names(branchId: string): Promise<{ role: string; database: string }> {
  const { body } = await api("GET", `/projects/${emu.projectId}/branches/${branchId}/databases`);
  const [db] = body["databases"] as Array<{ name: string; owner_name: string }>;
  return { role: db?.owner_name ?? "", database: db?.name ?? "" };
}

async function uri(branchId: string, pooled = false): Promise<string> {
  const { role, database } = await names(branchId);
  const res = await api("GET", `/projects/${emu.projectId}/connection_uri?branch_id=${branchId}&role_name=${role}&database_name=${database}&pooled=${pooled}`);
  expect(res.status).toBe(200);
  return String(res.body["uri"]);
}

async function rows(url: string): Promise<string[]> {
  return (await query(url, "SELECT note FROM notes ORDER BY note")).map((r) => String(r["note"]));
}

describe("real databases behind branches (realDatabases)", () => {
  it("copies the parent's data into a child created after it, and keeps the two apart afterwards", async () => {
    const parentUrl = await uri(emu.defaultBranchId);
    expect(parentUrl).toMatch(/^postgresql:\/\/svc_[0-9a-f]{12}_[^:]+:[^@]+@127\.0\.0\.1:\d+\/svc_[0-9a-f]{12}_[^?]+\?sslmode=disable$/);
    await query(parentUrl, "CREATE TABLE notes (note text)");
    await query(parentUrl, "INSERT INTO notes VALUES ('written on the parent')");

    const created = await api("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "copy-test" }, endpoints: [{ type: "read_write" }] });
    expect(created.status).toBe(201);
    const childId = String((created.body["branch"] as Record<string, unknown>)["id"]);
    const childUrl = await uri(childId);
    expect(childUrl).not.toBe(parentUrl);
    expect(await rows(childUrl)).toEqual(["written on the parent"]);

    await query(childUrl, "INSERT INTO notes VALUES ('written on the child')");
    await query(parentUrl, "INSERT INTO notes VALUES ('parent after the branch')");
    expect(await rows(childUrl)).toEqual(["written on the child", "written on the parent"]);
    expect(await rows(parentUrl)).toEqual(["parent after the branch", "written on the parent"]);
    expect(await rows(await uri(childId, true))).toEqual(["written on the child", "written on the parent"]);

    const deleted = await api("DELETE", `/projects/${emu.projectId}/branches/${childId}`);
    expect(deleted.status).toBe(200);
    await expect(query(childUrl, "SELECT 1")).rejects.toThrow();
    expect(await rows(parentUrl)).toEqual(["parent after the branch", "written on the parent"]);
  }, 60_000);

  it("keeps one branch's role out of another branch's database", async () => {
    const created = await api("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "isolated" }, endpoints: [{ type: "read_write" }] });
    const childId = String((created.body["branch"] as Record<string, unknown>)["id"]);
    const childUrl = new URL(await uri(childId));
    const parentUrl = new URL(await uri(emu.defaultBranchId));
    childUrl.pathname = parentUrl.pathname;
    await expect(query(childUrl.toString(), "SELECT 1")).rejects.toThrow(/permission denied for database/);
  }, 60_000);
});

describe("the branch-database manager on its own backend", () => {
  it("drops every database and role it created on a graceful stop, and starts nothing when it created none", async () => {
    const backend = testBackend();
    try {
      const idle = createBranchDatabases(backend, () => undefined);
      await idle.dropAll();
      expect(backend.info()).toBeNull();

      const real = createBranchDatabases(backend, () => undefined);
      const branch = { id: "br-drop-all-1", roles: new Map([["app_owner", { password: "pw-1234567890" }]]), databases: new Map([["appdb", { ownerName: "app_owner" }]]) };
      const url = await real.connectionUri(branch, "app_owner", "appdb", false);
      expect(await query(url, "SELECT current_database() AS db")).toEqual([{ db: physicalName(branch.id, "appdb") }]);
      await real.dropAll();
      expect(await backend.adminQuery("SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_%'")).toEqual([]);
      expect(await backend.adminQuery("SELECT rolname FROM pg_roles WHERE rolname LIKE 'svc\\_%' ORDER BY 1")).toEqual([{ rolname: "svc_superuser" }]);
    } finally {
      await backend.stop();
    }
  }, 60_000);

  it("shortens long physical names to 63 bytes with a hash suffix", () => {
    const long = physicalName("br-x", "d".repeat(80));
    expect(Buffer.byteLength(long)).toBe(63);
    expect(long).toMatch(/^svc_[0-9a-f]{12}_d+_[0-9a-f]{8}$/);
    expect(physicalName("br-x", "d".repeat(80))).toBe(long);
    expect(physicalName("br-x", "e".repeat(80))).not.toBe(long);
  });
});
