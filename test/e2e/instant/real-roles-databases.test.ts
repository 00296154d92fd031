/**
 * With `realDatabases`, roles and databases created, changed and deleted through the management
 * API exist (or stop existing) in the real PostgreSQL, checked with `psql`.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { physicalName } from "../../../src/emulator/postgres/branch-databases.js";
import { managementCall } from "./harness.js";

let emu: RunningEmulator;
let base: string;

beforeAll(async () => {
  const found = await promisify(execFile)("psql", ["--version"]).catch(() => null);
  if (found === null) throw new Error("psql is missing: install it with `apt-get install -y --no-install-recommends postgresql-client`");
  emu = await startEmulator({ realDatabases: true, timings: { opSchedulingMs: 0, opRunMs: 0 } });
  base = `/projects/${emu.projectId}/branches/${emu.defaultBranchId}`;
}, 120_000);
afterAll(async () => {
  await emu?.close();
});

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await managementCall(emu, method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

async function uri(role: string, database: string): Promise<string> {
  const body = await api("GET", `/projects/${emu.projectId}/connection_uri?branch_id=${emu.defaultBranchId}&role_name=${role}&database_name=${database}`);
  return String(body["uri"]);
}

/** Runs one statement with psql; resolves its unaligned output, or rejects with psql's stderr. */
async function psql(url: string, sql: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("psql", [url, "-v", "ON_ERROR_STOP=1", "-Atc", sql], { env: { PATH: process.env.PATH ?? "" } });
    return stdout.trim();
  } catch (err) {
    throw new Error(String((err as { stderr?: string }).stderr ?? err));
  }
}

const phys = (name: string): string => physicalName(emu.defaultBranchId, name);

describe("roles and databases made through the API, in the real PostgreSQL", () => {
  it("creates, re-owns, renames and drops them", async () => {
    const created = await api("POST", `${base}/roles`, { role: { name: "app_owner" } });
    expect((created["role"] as { password?: string }).password).toBeTruthy();
    await api("POST", `${base}/roles`, { role: { name: "reporter" } });
    // Both roles exist as login roles before anything connects.
    const neondb = await uri("neondb_owner", "neondb");
    expect(await psql(neondb, `SELECT rolname FROM pg_roles WHERE rolname IN ('${phys("app_owner")}', '${phys("reporter")}') AND rolcanlogin ORDER BY 1`)).toBe([phys("app_owner"), phys("reporter")].join("\n"));

    await api("POST", `${base}/databases`, { database: { name: "appdb", owner_name: "app_owner" } });
    expect(await psql(neondb, `SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '${phys("appdb")}'`)).toBe(phys("app_owner"));
    const asOwner = await uri("app_owner", "appdb");
    await psql(asOwner, "CREATE TABLE notes (note text); INSERT INTO notes VALUES ('kept')");
    expect(await psql(await uri("reporter", "appdb"), "SELECT current_user")).toBe(phys("reporter"));

    await api("PATCH", `${base}/databases/appdb`, { database: { owner_name: "reporter" } });
    expect(await psql(neondb, `SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '${phys("appdb")}'`)).toBe(phys("reporter"));

    // As in PostgreSQL, a new database owner does not take over the tables inside.
    await expect(psql(await uri("reporter", "appdb"), "SELECT note FROM notes")).rejects.toThrow(/permission denied for table notes/);

    await api("PATCH", `${base}/databases/appdb`, { database: { name: "maindb" } });
    expect(await psql(await uri("app_owner", "maindb"), "SELECT current_database() || ' ' || (SELECT note FROM notes)")).toBe(`${phys("maindb")} kept`);
    await expect(psql(asOwner, "SELECT 1")).rejects.toThrow(/does not exist/);

    // The deleted role's table goes to the database's owner, then the role is gone.
    await api("DELETE", `${base}/roles/app_owner`);
    expect(await psql(neondb, `SELECT count(*) FROM pg_roles WHERE rolname = '${phys("app_owner")}'`)).toBe("0");
    expect(await psql(await uri("reporter", "maindb"), "SELECT tableowner FROM pg_tables WHERE tablename = 'notes'")).toBe(phys("reporter"));

    await api("DELETE", `${base}/databases/maindb`);
    expect(await psql(neondb, `SELECT count(*) FROM pg_database WHERE datname = '${phys("maindb")}'`)).toBe("0");
  }, 90_000);

  it("applies a reset password: the old one stops working", async () => {
    await api("POST", `${base}/roles`, { role: { name: "rotating" } });
    const before = await uri("rotating", "neondb");
    expect(await psql(before, "SELECT current_user")).toBe(phys("rotating"));
    await api("POST", `${base}/roles/rotating/reset_password`);
    await expect(psql(before, "SELECT 1")).rejects.toThrow(/password authentication failed/);
    expect(await psql(await uri("rotating", "neondb"), "SELECT current_user")).toBe(phys("rotating"));
  }, 60_000);
});
