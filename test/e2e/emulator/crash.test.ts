import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/harness.js";
import { spawnEmulatorCli } from "./cli-process.js";

const ROUNDS = 20;
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), "svc-emu-crash-"));
const spawnCli = (args: string[]) => spawnEmulatorCli(["--port", "0", "--timings", "0", ...args], children);

beforeAll(ensureBuilt, 300_000);
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
      // Writers run until the kill; only answers received count as acknowledged. The kill comes a
      // varying delay after the round's first acknowledged write, however slow the machine is.
      let stop = false;
      let firstAcknowledged = (): void => undefined;
      const acknowledgedOnce = new Promise<void>((resolve) => (firstAcknowledged = resolve));
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const name = `r${round}-w${w}-${i}`;
          try {
            const res = await fetch(branches, { method: "POST", headers, body: JSON.stringify({ branch: { name } }) });
            if (res.status === 201) {
              acknowledged.push(name);
              firstAcknowledged();
            }
            else if (res.status !== 423) throw new Error(`unexpected status ${res.status} for branch ${name}`);
          } catch (err) {
            if (!stop) throw err;
          }
        }
      };
      const writers = Promise.allSettled([writer(0), writer(1), writer(2)]);
      await Promise.race([acknowledgedOnce, writers]);
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
