/**
 * `npx svc emulator &` then `kill %1`, as the README and CI scripts do: npm receives the SIGTERM,
 * and the emulator two processes down must stop too, with the PostgreSQL it started. Real npm.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchNpmLauncher } from "../../../src/emulator/launcher-watch.js";
import { BIN, ROOT, emptyDir, ensureBuilt, runProcess } from "../cli/harness.js";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** An app with svc-config installed (a link to this repository), as npm leaves it. */
function app(): string {
  const dir = emptyDir();
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "version": "1.0.0", "type": "module" }\n');
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "svc-config"));
  symlinkSync(BIN, join(dir, "node_modules", ".bin", "svc"));
  return dir;
}

/** The processes below `root` in a `ps -eo pid=,ppid=,args=` listing, `root` included. */
function subtree(listing: string, root: number): number[] {
  const rows = listing.split("\n").map((line) => line.trim().split(/\s+/).map(Number)).filter(([pid]) => Number.isInteger(pid));
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of rows) if (ppid === found[i] && pid !== undefined) found.push(pid);
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a background npm-launched emulator stops with its launcher", () => {
  it.each([
    ["npx svc emulator", "npx svc emulator --port 0 --real-databases"],
    ["npm exec svc -- emulator", "npm exec svc -- emulator --port 0 --real-databases"],
  ])("%s in the background, then kill of the job: the emulator and its PostgreSQL are gone", async (_label, command) => {
    await ensureBuilt();
    const dir = app();
    // Start it, wait for its lines, make it start PostgreSQL (a connection URI), list the processes, kill the job.
    const script = [
      `${command} > .env.emulator 2> emulator.log &`,
      "until grep -qs SVC_CLAIM_API_HOST .env.emulator; do sleep 0.2; done",
      "set -a; . ./.env.emulator; set +a",
      'curl -sf -H "authorization: Bearer $SVC_API_KEY" "$SVC_API_HOST/projects/$SVC_PROJECT_ID/connection_uri?role_name=neondb_owner&database_name=neondb" > uri.json',
      "ps -eo pid=,ppid=,args= > processes.txt",
      "kill %1",
      "wait",
    ].join("\n");
    const run = await runProcess("bash", ["-c", script], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
    expect(run.code, run.stderr).not.toBe(null);
    expect(readFileSync(join(dir, "uri.json"), "utf8")).toContain("postgresql://");
    const listing = readFileSync(join(dir, "processes.txt"), "utf8");
    const emulator = listing.split("\n").find((line) => line.includes(`${dir}/node_modules/.bin/svc emulator`));
    const tree = subtree(listing, Number(emulator?.trim().split(/\s+/)[0]));
    // The emulator, its PostgreSQL supervisor and the server (at least the postmaster).
    expect(tree.length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 120 && tree.some(alive); i++) await sleep(250);
    expect(tree.filter(alive)).toEqual([]);
    expect(readFileSync(join(dir, "emulator.log"), "utf8")).toContain("svc emulator: stopping (npm exec, which started it, has exited)");
  }, 120_000);
});

describe("watchNpmLauncher", () => {
  it.each([
    ["stops once npm exec's process is gone", { npm_command: "exec" }, [100, 100, 1], 1],
    ["keeps running while the parent stays", { npm_command: "exec" }, [100], 0],
    ["never watches a process npm exec did not start", {}, [100, 1], 0],
    ["never watches an npm script (npm run)", { npm_command: "run-script" }, [100, 1], 0],
  ] as const)("%s", async (_label, env, parents, expected) => {
    let calls = 0;
    let i = 0;
    const stop = watchNpmLauncher(env, () => (calls += 1), () => parents[Math.min(i++, parents.length - 1)] ?? 0);
    await sleep(1_200);
    stop();
    expect(calls).toBe(expected);
  });
});
