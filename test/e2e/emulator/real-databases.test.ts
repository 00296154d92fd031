/** With real databases, branch restore and snapshots move the data too, and schema reads show the real schema (over real HTTP and real PostgreSQL). */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { client, type TestClient } from "./helpers.js";

async function query(url: string, text: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<{ note: string }>(text)).rows.map((r) => r.note);
  } finally {
    await db.end();
  }
}

describe("restore with real databases", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  const branches = (): string => `/projects/${emu.projectId}/branches`;
  const uri = async (branchId: string): Promise<string> => {
    const res = await api.call<{ uri: string }>("GET", `/projects/${emu.projectId}/connection_uri?branch_id=${branchId}&role_name=neondb_owner&database_name=neondb`);
    expect(res.status).toBe(200);
    return res.body.uri;
  };
  const notes = async (branchId: string): Promise<string[]> => query(await uri(branchId), "SELECT note FROM notes ORDER BY note");
  /** connection_uri needs a read-write endpoint on the branch. */
  const addEndpoint = async (branchId: string): Promise<void> => {
    expect((await api.call("POST", `/projects/${emu.projectId}/endpoints`, { endpoint: { branch_id: branchId, type: "read_write" } })).status).toBe(201);
  };
  const newBranch = async (name: string): Promise<string> => {
    const res = await api.call<{ branch: { id: string } }>("POST", branches(), { branch: { name }, endpoints: [{ type: "read_write" }] });
    expect(res.status).toBe(201);
    return res.body.branch.id;
  };

  beforeAll(async () => {
    emu = await startEmulator({ realDatabases: true, timings: { opSchedulingMs: 0, opRunMs: 0 } });
    api = client(emu);
    await query(await uri(emu.defaultBranchId), "CREATE TABLE notes (note text)");
    await query(await uri(emu.defaultBranchId), "INSERT INTO notes VALUES ('main v1')");
  }, 120_000);
  afterAll(() => emu?.close());

  it("restoring a branch from its parent replaces its data with the parent's, keeping the old data when preserved", async () => {
    const feature = await newBranch("feature");
    await query(await uri(feature), "INSERT INTO notes VALUES ('feature only')");
    await query(await uri(emu.defaultBranchId), "INSERT INTO notes VALUES ('main v2')");
    const res = await api.call<{ preserved_branch: { id: string } }>("POST", `${branches()}/${feature}/restore`, { source_branch_id: emu.defaultBranchId, preserve_under_name: "feature-old" });
    expect(res.status).toBe(200);
    expect(await notes(feature)).toEqual(["main v1", "main v2"]);
    await addEndpoint(res.body.preserved_branch.id);
    expect(await notes(res.body.preserved_branch.id)).toEqual(["feature only", "main v1"]);
    expect(await notes(emu.defaultBranchId)).toEqual(["main v1", "main v2"]);
  }, 60_000);

  it("a snapshot keeps the data of its moment; restoring it gives a branch with that data", async () => {
    const snap = await api.call<{ snapshot: { id: string } }>("POST", `${branches()}/${emu.defaultBranchId}/snapshot?name=before-v3`);
    expect(snap.status).toBe(201);
    await query(await uri(emu.defaultBranchId), "INSERT INTO notes VALUES ('main v3')");
    const restored = await api.call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/snapshots/${snap.body.snapshot.id}/restore`, { name: "from-snapshot" });
    expect(restored.status).toBe(201);
    await addEndpoint(restored.body.branch.id);
    expect(await notes(restored.body.branch.id)).toEqual(["main v1", "main v2"]);
    expect(await notes(emu.defaultBranchId)).toEqual(["main v1", "main v2", "main v3"]);
    expect((await api.call("DELETE", `/projects/${emu.projectId}/snapshots/${snap.body.snapshot.id}`)).status).toBe(200);
  }, 60_000);

  it("reads a branch's schema from its real database, and compares two branches' schemas", async () => {
    const schema = await api.call<{ sql: string }>("GET", `${branches()}/${emu.defaultBranchId}/schema?db_name=neondb`);
    // Each table is followed by its owner, as pg_dump writes it (the branch's role name, not the physical one).
    expect(schema.body.sql).toBe("CREATE TABLE public.notes (\n    note text\n);\n\nALTER TABLE public.notes OWNER TO neondb_owner;\n");
    const json = await api.call<{ json: { tables: unknown[] } }>("GET", `${branches()}/${emu.defaultBranchId}/schema?db_name=neondb&format=json`);
    expect(json.body.json.tables).toEqual([{ schema: "public", name: "notes", columns: [{ name: "note", type: "text", nullable: true }] }]);
    const child = await newBranch("schema-change");
    await query(await uri(child), "ALTER TABLE notes ADD COLUMN author text NOT NULL DEFAULT 'me'");
    const compared = await api.call<{ diff: string }>("GET", `${branches()}/${child}/compare_schema?db_name=neondb`);
    expect(compared.body.diff).toBe(
      `--- ${emu.defaultBranchId}/neondb\n+++ ${child}/neondb\n@@ -1,5 +1,6 @@\n CREATE TABLE public.notes (\n-    note text\n+    note text,\n+    author text DEFAULT 'me'::text NOT NULL\n );\n \n ALTER TABLE public.notes OWNER TO neondb_owner;\n`,
    );
  }, 60_000);
});
