import { spawn, type ChildProcess } from "node:child_process";
import { chmod, cp, lstat, mkdtemp, readdir, readFile, rm, stat, unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBinaryCache, locatePlatformPackage } from "../../../src/emulator/postgres/binaries.js";
import { isAlive, readPostmasterPid } from "../../../src/emulator/postgres/stale-server.js";
import { ensureServerUser, isRoot } from "../../../src/emulator/postgres/unix-user.js";
import { query } from "./harness.js";

const run = promisify(execFile);
const FIXTURE = path.resolve("fixtures/instant/backend-process.ts");
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cleanup: string[] = [];

afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

interface Started {
  readonly child: ChildProcess;
  readonly info: { directPort: number; pooledPort: number; direct: string; pooled: string };
}

/** Starts the fixture "emulator" process and reads its JSON line. */
function startProcess(dataDir: string, name: string): Promise<Started> {
  const child = spawn(process.execPath, ["--import", TSX, FIXTURE, dataDir, name], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, info: JSON.parse(line) as Started["info"] }));
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}: ${stderr}`)));
  });
}

/** Waits until `pid` is gone; fails after `limitMs` (a liveness bound, not a timing assertion). */
async function waitForExit(pid: number, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still alive`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "svc-instant-data-"));
  // mkdtemp makes 0700; the server's user must traverse the data dir.
  await chmod(dir, 0o755);
  cleanup.push(dir);
  return dir;
}

describe("the supervisor", () => {
  it("stops the server when the emulator process is killed with SIGKILL", async () => {
    const dataDir = await newDataDir();
    const { child, info } = await startProcess(dataDir, "svc_claim_kill_parent");
    expect(await query(info.direct, "SELECT current_user AS u")).toEqual([{ u: "svc_claim_kill_parent" }]);
    const server = await readPostmasterPid(path.join(dataDir, "pg", "cluster"));
    expect(server).not.toBeNull();
    child.kill("SIGKILL");
    await waitForExit(server!.pid);
    expect(isAlive(server!.pid)).toBe(false);
  });

  it("stops a server left by a killed run on the next start and reuses the stored ports and data", async () => {
    const dataDir = await newDataDir();
    const first = await startProcess(dataDir, "svc_claim_leftover");
    await query(first.info.direct, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)");
    const server = (await readPostmasterPid(path.join(dataDir, "pg", "cluster")))!;
    const supervisor = await parentOf(server.pid);
    // Kill the emulator and its supervisor at once: the server itself survives.
    process.kill(supervisor, "SIGKILL");
    first.child.kill("SIGKILL");
    await waitForExit(supervisor);
    expect(isAlive(server.pid)).toBe(true);

    const second = await startProcess(dataDir, "svc_claim_leftover");
    try {
      expect(isAlive(server.pid)).toBe(false);
      expect(second.info.directPort).toBe(first.info.directPort);
      expect(second.info.pooledPort).toBe(first.info.pooledPort);
      const stored = JSON.parse(await readFile(path.join(dataDir, "pg", "ports.json"), "utf8")) as unknown;
      expect(stored).toEqual({ direct: first.info.directPort, pooled: first.info.pooledPort });
      expect(await query(second.info.pooled, "SELECT v FROM kept")).toEqual([{ v: 42 }]);
    } finally {
      const pid = (await readPostmasterPid(path.join(dataDir, "pg", "cluster")))?.pid;
      second.child.kill("SIGKILL");
      if (pid !== undefined) await waitForExit(pid);
    }
  });
});

describe("the binary cache", () => {
  it("recreates the shared-library links even when the package's links were deleted", async () => {
    const scratch = await mkdtemp(path.join(tmpdir(), "svc-instant-pkg-"));
    cleanup.push(scratch);
    await chmod(scratch, 0o755);
    const pkg = path.join(scratch, "pkg");
    await cp(locatePlatformPackage(), pkg, { recursive: true, verbatimSymlinks: true });
    const libDir = path.join(pkg, "native", "lib");
    let removed = 0;
    for (const entry of await readdir(libDir)) {
      if ((await lstat(path.join(libDir, entry))).isSymbolicLink()) {
        await unlink(path.join(libDir, entry));
        removed++;
      }
    }
    expect(removed).toBeGreaterThan(0);

    const cache = await ensureBinaryCache(pkg, scratch);
    expect(cache.root).toBe(path.join(scratch, `svc-config-pg-${cache.version}`));
    expect((await lstat(path.join(cache.libDir, "libicuuc.so.60"))).isSymbolicLink()).toBe(true);
    const user = isRoot() ? await ensureServerUser() : null;
    const { stdout } = await run(cache.postgres, ["--version"], {
      env: { LD_LIBRARY_PATH: cache.libDir },
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    expect(stdout).toMatch(/^postgres \(PostgreSQL\) 17\./);
  });
});

describe("a script that forgets close()", () => {
  it("still exits with its own exit code, and its PostgreSQL server stops", async () => {
    const child = spawn(process.execPath, ["--import", TSX, path.resolve("fixtures/instant/forgets-close.ts")], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect(code).toBe(1);
    const { descendants, clusters } = JSON.parse(stdout.trim()) as { descendants: number[]; clusters: string[] };
    expect(descendants.length).toBeGreaterThanOrEqual(2);
    expect(clusters).toHaveLength(1);
    for (const pid of descendants) await waitForExit(pid);
    // The temporary cluster is removed once the server has stopped.
    await expect(stat(path.dirname(clusters[0]!))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
