/**
 * With real databases, an endpoint's `host` connects: a client that builds its connection string
 * as the platform's CLI does (`postgresql://<role>:<password>@<host>/<database>`, `-pooler` inserted
 * after the endpoint id for the pooled one) reaches the branch's database with the branch's own
 * role and database names. Real HTTP, real PostgreSQL, `pg` and `psql`.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { client, type TestClient } from "./helpers.js";

const run = promisify(execFile);

interface EndpointRecord {
  id: string;
  host: string;
  branch_id: string;
}

/** The platform CLI's `connection-string`: host from the record, names and password from the API, TLS omitted. */
function cliConnectionString(endpoint: EndpointRecord, role: string, password: string, database: string, pooled: boolean): string {
  const host = pooled ? endpoint.host.replace(endpoint.id, `${endpoint.id}-pooler`) : endpoint.host;
  const url = new URL(`postgresql://${host}`);
  url.pathname = database;
  url.username = role;
  url.password = password;
  return url.toString();
}

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(text)).rows as Record<string, unknown>[];
  } finally {
    await db.end();
  }
}

describe("endpoint hosts under --real-databases", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  const endpointsOf = async (branchId: string): Promise<EndpointRecord[]> =>
    (await api.call<{ endpoints: EndpointRecord[] }>("GET", `/projects/${emu.projectId}/branches/${branchId}/endpoints`)).body.endpoints;
  const passwordOf = async (branchId: string, role: string): Promise<string> =>
    (await api.call<{ password: string }>("GET", `/projects/${emu.projectId}/branches/${branchId}/roles/${role}/reveal_password`)).body.password;
  const connectionUri = async (branchId: string): Promise<string> =>
    (await api.call<{ uri: string }>("GET", `/projects/${emu.projectId}/connection_uri?branch_id=${branchId}&role_name=neondb_owner&database_name=neondb`)).body.uri;

  beforeAll(async () => {
    emu = await startEmulator({ realDatabases: true, timings: { opSchedulingMs: 0, opRunMs: 0 } });
    api = client(emu);
  }, 120_000);
  afterAll(() => emu?.close());

  it("gives a host that is not the platform's unresolvable name, and pg connects to it with the branch's own names", async () => {
    const [endpoint] = await endpointsOf(emu.defaultBranchId);
    if (endpoint === undefined) throw new Error("the default branch has no endpoint");
    expect(endpoint.host).not.toMatch(/emulator\.invalid/);
    expect(endpoint.host).toContain(endpoint.id);
    const url = cliConnectionString(endpoint, "neondb_owner", await passwordOf(emu.defaultBranchId, "neondb_owner"), "neondb", false);
    await query(url, "CREATE TABLE notes (note text); INSERT INTO notes VALUES ('through the endpoint host')");
    // The same database connection_uri gives.
    expect(await query(await connectionUri(emu.defaultBranchId), "SELECT note FROM notes")).toEqual([{ note: "through the endpoint host" }]);
  }, 60_000);

  it("connects through the pooled host, and reaches a child branch's own copy through its endpoint", async () => {
    const created = await api.call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "feature" }, endpoints: [{ type: "read_write" }] });
    const child = created.body.branch.id;
    await emu.settle();
    const [endpoint] = await endpointsOf(child);
    if (endpoint === undefined) throw new Error("the child branch has no endpoint");
    const password = await passwordOf(child, "neondb_owner");
    await query(cliConnectionString(endpoint, "neondb_owner", password, "neondb", true), "INSERT INTO notes VALUES ('child only')");
    expect((await query(cliConnectionString(endpoint, "neondb_owner", password, "neondb", false), "SELECT note FROM notes ORDER BY note")).map((r) => r["note"])).toEqual(["child only", "through the endpoint host"]);
    expect((await query(await connectionUri(emu.defaultBranchId), "SELECT note FROM notes")).map((r) => r["note"])).toEqual(["through the endpoint host"]);
  }, 60_000);

  it("connects with psql", async (ctx) => {
    const found = await run("psql", ["--version"]).then(
      () => true,
      () => false,
    );
    if (!found) {
      if (process.env["SVC_SKIP_PSQL_TESTS"] === "1" && !process.env["CI"]) return ctx.skip("psql is missing and SVC_SKIP_PSQL_TESTS=1");
      throw new Error("psql is missing: install it with `apt-get install -y --no-install-recommends postgresql-client` (or set SVC_SKIP_PSQL_TESTS=1 outside CI)");
    }
    const [endpoint] = await endpointsOf(emu.defaultBranchId);
    if (endpoint === undefined) throw new Error("the default branch has no endpoint");
    const url = cliConnectionString(endpoint, "neondb_owner", await passwordOf(emu.defaultBranchId, "neondb_owner"), "neondb", false);
    const { stdout } = await run("psql", [url, "-Atc", "SELECT note FROM notes"]);
    expect(stdout.trim()).toBe("through the endpoint host");
  }, 60_000);

  it.each([
    ["a role the branch does not have", "nobody", "neondb", 'role "nobody" does not exist on branch'],
    ["a database the branch does not have", "neondb_owner", "nodb", 'database "nodb" does not exist on branch'],
  ])("refuses %s with the platform's kind of error", async (_label, role, database, message) => {
    const [endpoint] = await endpointsOf(emu.defaultBranchId);
    if (endpoint === undefined) throw new Error("the default branch has no endpoint");
    const url = cliConnectionString(endpoint, role, "x", database, false);
    await expect(query(url, "SELECT 1")).rejects.toThrow(message);
  }, 60_000);
});
