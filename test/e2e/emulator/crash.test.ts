import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../../fixtures/emulator/run-cli.ts", import.meta.url));
const ROUNDS = 20;
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), "svc-emu-crash-"));

interface Run {
  child: ChildProcess;
  env: Promise<Record<string, string>>;
  exit: Promise<number | null>;
  stderr: () => string;
}

function spawnCli(args: string[]): Run {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, "--port", "0", "--timings", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const env = new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n").filter((l) => l.startsWith("SVC_"));
      if (lines.length >= 5) resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])));
    });
    void exit.then((code) => reject(new Error(`svc emulator exited ${String(code)} before it was ready: ${err}`)));
  });
  // Runs that are expected to fail are never awaited for readiness.
  env.catch(() => undefined);
  return { child, env, exit, stderr: () => err };
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("crash safety of --data-dir (kill -9)", () => {
  it(`keeps every acknowledged mutation across ${ROUNDS} kill -9 rounds`, async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const run = spawnCli(["--data-dir", dir]);
      const env = await run.env;
      const headers = { authorization: `Bearer ${env["SVC_API_KEY"]}`, "content-type": "application/json" };
      const branches = `${env["SVC_API_HOST"]}/projects/${env["SVC_PROJECT_ID"]}/branches`;
      const listed = (await (await fetch(`${branches}?limit=10000`, { headers })).json()) as { branches: { name: string }[] };
      const names = new Set(listed.branches.map((b) => b.name));
      expect(acknowledged.filter((name) => !names.has(name))).toEqual([]);
      // Writers run until the kill; only answers received count as acknowledged.
      let stop = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const name = `r${round}-w${w}-${i}`;
          try {
            const res = await fetch(branches, { method: "POST", headers, body: JSON.stringify({ branch: { name } }) });
            if (res.status === 201) acknowledged.push(name);
            else if (res.status !== 423) throw new Error(`unexpected status ${res.status} for branch ${name}`);
          } catch (err) {
            if (!stop) throw err;
          }
        }
      };
      const writers = Promise.allSettled([writer(0), writer(1), writer(2)]);
      await new Promise((resolve) => setTimeout(resolve, 30 + ((round * 37) % 120)));
      stop = true;
      run.child.kill("SIGKILL");
      await run.exit;
      expect((await writers).filter((w) => w.status === "rejected")).toEqual([]);
    }
    const last = spawnCli(["--data-dir", dir]);
    const env = await last.env;
    const res = await fetch(`${env["SVC_API_HOST"]}/projects/${env["SVC_PROJECT_ID"]}/branches?limit=10000`, { headers: { authorization: `Bearer ${env["SVC_API_KEY"]}` } });
    const names = new Set(((await res.json()) as { branches: { name: string }[] }).branches.map((b) => b.name));
    expect(acknowledged.length).toBeGreaterThan(ROUNDS);
    expect(acknowledged.filter((name) => !names.has(name))).toEqual([]);
    last.child.kill("SIGTERM");
    expect(await last.exit).toBe(0);
  }, 120_000);

  it("exits 3 with the corruption message when a byte of state.json is flipped, and 2 while another emulator holds the lock", async () => {
    const holder = spawnCli(["--data-dir", dir]);
    await holder.env;
    const second = spawnCli(["--data-dir", dir]);
    expect(await second.exit).toBe(2);
    expect(second.stderr()).toContain("is in use by another emulator");
    holder.child.kill("SIGTERM");
    expect(await holder.exit).toBe(0);
    const path = join(dir, "state.json");
    const text = readFileSync(path, "utf8");
    const at = text.indexOf('"name":"main"');
    writeFileSync(path, `${text.slice(0, at)}"name":"mäin"${text.slice(at + '"name":"main"'.length)}`);
    const damaged = spawnCli(["--data-dir", dir]);
    expect(await damaged.exit).toBe(3);
    expect(damaged.stderr()).toContain(`data dir ${dir} is corrupt: state.json fails its checksum. Move the directory aside or restore a backup; the emulator never discards data.`);
  }, 60_000);
});
