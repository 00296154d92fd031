import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInstantFeature, type InstantFeature } from "../../../src/emulator/claimable/index.js";
import { createClaimableService } from "../../../src/emulator/claimable/service.js";
import { createPostgresBackend } from "../../../src/emulator/postgres/backend.js";
import { manualClock, query, TEST_ACCOUNTS } from "./harness.js";

const run = promisify(execFile);
const clock = manualClock();
const log: string[] = [];
let dataDir: string;
let feature: InstantFeature;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "svc-instant-server-"));
  await chmod(dataDir, 0o755);
  feature = createInstantFeature({
    dataDir,
    clock,
    instanceId: "instance-a",
    origin: () => "http://127.0.0.1:4010",
    log: (line) => log.push(line),
    accounts: TEST_ACCOUNTS,
    adopt: () => undefined,
  });
});
afterAll(async () => {
  await feature?.close({ dropDatabases: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function urlsOf(logicalReplication: boolean): Promise<{ direct: string; pooled: string; name: string }> {
  const { record } = await feature.service.create({ ref: "server-test", logicalReplication });
  const urls = feature.service.urls(record)!;
  return { ...urls, name: record.physicalName };
}

describe("the PostgreSQL server behind claimable databases", () => {
  it("starts only when the first database is created", async () => {
    expect(feature.backend.info()).toBeNull();
    await urlsOf(false);
    expect(feature.backend.info()).toMatchObject({ kind: "embedded", majorVersion: 17, walLevel: "logical" });
  });

  it("allows logical replication slots only for databases created with the flag", async () => {
    const withFlag = await urlsOf(true);
    const without = await urlsOf(false);
    const slot = "SELECT slot_name FROM pg_create_logical_replication_slot('app_slot', 'pgoutput')";
    expect(await query(withFlag.direct, slot)).toEqual([{ slot_name: "app_slot" }]);
    await expect(query(without.direct, slot)).rejects.toMatchObject({ code: "42501" });
  });

  it("serves both URLs to psql", async (ctx) => {
    const psql = await run("psql", ["--version"]).catch(() => null);
    if (psql === null) {
      if (process.env["SVC_SKIP_PSQL_TESTS"] === "1" && !process.env["CI"]) return ctx.skip("psql is missing and SVC_SKIP_PSQL_TESTS=1");
      throw new Error("psql is missing: install it with `apt-get install -y --no-install-recommends postgresql-client` (or set SVC_SKIP_PSQL_TESTS=1 outside CI)");
    }
    const db = await urlsOf(false);
    for (const url of [db.direct, db.pooled]) {
      const { stdout } = await run("psql", [url, "-Atc", "SELECT current_database()"]);
      expect(stdout.trim()).toBe(db.name);
    }
  });

  it("works against an external server given by URL", async () => {
    const info = feature.backend.info()!;
    const { password } = JSON.parse(await readFile(path.join(dataDir, "pg", "superuser.json"), "utf8")) as { password: string };
    const external = createPostgresBackend({ postgres: `postgresql://svc_superuser:${encodeURIComponent(password)}@127.0.0.1:${info.directPort}/postgres?sslmode=disable` });
    try {
      expect(await external.start()).toMatchObject({ kind: "external", majorVersion: 17, directPort: info.directPort });
      const urls = await external.createDatabase({ name: "svc_claim_external_case", password: "external-pass", replication: false, comment: "instance-x" });
      // Both URLs name the local socket-directory hosts, which forward to the external server.
      expect(new URL(urls.pooled).hostname).toBe(new URL(urls.direct).hostname.replace(/^(.*?)\./, "$1-pooler."));
      for (const url of [urls.direct, urls.pooled]) expect(await query(url, "SELECT current_user AS u")).toEqual([{ u: "svc_claim_external_case" }]);
      await external.dropDatabase("svc_claim_external_case");
    } finally {
      await external.stop();
    }
  });

  it("reconciles: drops this instance's orphans, keeps other instances' databases, removes records without a database", async () => {
    const orphan = await urlsOf(false);
    await feature.backend.createDatabase({ name: "svc_claim_foreign_case", password: "foreign-pass", replication: false, comment: "instance-b" });
    const restarted = createClaimableService({ backend: feature.backend, clock, instanceId: "instance-a", log: (line) => log.push(line) });
    const ghost = { ...feature.service.exportState().records[0]!, id: "0197a3c2-3333-7000-8000-000000000001", physicalName: "svc_claim_does_not_exist" };
    const kept = feature.service.exportState().records.filter((r) => r.physicalName !== orphan.name);
    restarted.importState({ records: [...kept, ghost], tombstones: [] });
    await restarted.reconcile();
    const names = (await feature.backend.listDatabases("svc_claim_")).map((d) => d.name);
    expect(names).not.toContain(orphan.name);
    expect(names).toContain("svc_claim_foreign_case");
    expect(restarted.get(ghost.id)).toBeNull();
    expect(log.some((line) => line.includes("svc_claim_foreign_case") && line.includes("left alone"))).toBe(true);
    expect(log.some((line) => line.includes(ghost.id) && line.includes("record was removed"))).toBe(true);
    await feature.backend.dropDatabase("svc_claim_foreign_case");
  });
});
