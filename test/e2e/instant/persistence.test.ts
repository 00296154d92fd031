import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { ensureBuilt } from "../cli/harness.js";
import { spawnEmulatorCli } from "../emulator/cli-process.js";
import { call, query } from "./harness.js";

const dirs: string[] = [];
const running: RunningEmulator[] = [];
const children: ChildProcess[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-instant-data-"));
  // As root, PostgreSQL runs as user postgres, which must traverse the data dir.
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

beforeAll(ensureBuilt, 300_000);
afterEach(async () => {
  vi.restoreAllMocks();
  for (const emu of running.splice(0)) await emu.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Created {
  id: string;
  pooled: string;
  direct: string;
}

async function createWithRow(origin: string): Promise<Created> {
  const res = await call(`${origin}/api/v1/database`, "POST", { ref: "persistence-test" });
  expect(res.status).toBe(201);
  const created = { id: String(res.body["id"]), pooled: String(res.body["connection_string"]), direct: String((res.body["emulator"] as Record<string, unknown>)["direct_connection_string"]) };
  await query(created.direct, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the restart')");
  return created;
}

async function expectServed(origin: string, created: Created): Promise<Record<string, unknown>> {
  const res = await call(`${origin}/api/v1/database/${created.id}`, "GET");
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: created.id, status: "UNCLAIMED", connection_string: created.pooled });
  for (const url of [created.pooled, created.direct]) expect(await query(url, "SELECT v FROM kept")).toEqual([{ v: "before the restart" }]);
  return res.body;
}

const spawnCli = (args: string[]) => spawnEmulatorCli(["--port", "0", "--timings", "0", ...args], children);

describe("claimable databases with a data dir", () => {
  it("serves a database created before a restart, with its read-only state and working URLs, and keeps the instance id", async () => {
    const dir = dataDir();
    const options = { dataDir: dir, clock: new Date("2026-11-22T00:00:00Z"), limits: { claimableStorageBytes: 1_048_576 } } as const;
    const first = await startEmulator(options);
    running.push(first);
    const created = await createWithRow(first.claimApiHost);
    await first.instant.checkStorage();
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as { state: { instanceId: string; claimable: { records: { id: string }[] } } };
    expect(state.state.claimable.records.map((r) => r.id)).toEqual([created.id]);
    await first.close();
    running.splice(0);

    const stderr: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const second = await startEmulator(options);
    running.push(second);
    const record = await expectServed(second.claimApiHost, created);
    expect(record["emulator"]).toMatchObject({ read_only: true, read_only_reason: expect.stringMatching(/^storage limit exceeded/) as unknown });
    await expect(query(created.direct, "INSERT INTO kept VALUES ('x')")).rejects.toMatchObject({ code: "25006" });
    expect(stderr.join("")).not.toMatch(/another emulator instance|has no database|without a record/);
    const again = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as typeof state;
    expect(again.state.instanceId).toBe(state.state.instanceId);
  });

  it("drops a database of this emulator that has no record at the next start (a create whose write never happened)", async () => {
    const dir = dataDir();
    const first = await startEmulator({ dataDir: dir });
    running.push(first);
    const created = await createWithRow(first.claimApiHost);
    await first.close();
    running.splice(0);
    // The state as a kill -9 between the create and its write would leave it: no record.
    const path = join(dir, "state.json");
    const doc = JSON.parse(readFileSync(path, "utf8")) as { sha256: string; state: { claimable: { records: unknown[] } } };
    doc.state.claimable.records = [];
    doc.sha256 = createHash("sha256").update(JSON.stringify(doc.state)).digest("hex");
    writeFileSync(path, JSON.stringify(doc));

    const stderr: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const second = await startEmulator({ dataDir: dir });
    running.push(second);
    expect(stderr.join("")).toContain(`warning: dropping svc_claim_${created.id.replaceAll("-", "")}: a claimable database of this emulator without a record`);
    await expect(query(created.direct, "SELECT 1")).rejects.toThrow();
  });

  it("serves a database created before a kill -9, and its URLs still connect after the restart", async () => {
    const dir = dataDir();
    const first = spawnCli(["--data-dir", dir]);
    const env = await first.env;
    const created = await createWithRow(env["SVC_CLAIM_API_HOST"] ?? "");
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;

    const second = spawnCli(["--data-dir", dir]);
    const again = await second.env;
    await expectServed(again["SVC_CLAIM_API_HOST"] ?? "", created);
    expect(second.stderr()).not.toMatch(/another emulator instance|has no database|without a record/);
  });
});
