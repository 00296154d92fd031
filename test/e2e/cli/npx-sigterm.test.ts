/**
 * `npx svc emulator &` (or `npx svc dev &`) then `kill %1`, as the README and CI scripts do: npm
 * receives the SIGTERM, and svc two processes down must stop too, with the PostgreSQL or the
 * function processes it started. Real npm.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchNpmLauncher } from "../../../src/runtime/launcher-watch.js";
import { BIN, ROOT, emptyDir, ensureBuilt, runProcess } from "./harness.js";

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

/**
 * Runs `start` (a background job and what it is given to do) in bash, lists the processes, kills
 * the job and waits; then expects every process under the svc process whose command line holds
 * `svc <command>` to end. Returns how many there were.
 */
async function killJobAndWait(dir: string, start: readonly string[], command: string): Promise<number> {
  const script = [...start, "ps -eo pid=,ppid=,args= > processes.txt", "kill %1", "wait"].join("\n");
  const run = await runProcess("bash", ["-c", script], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
  expect(run.code, run.stderr).not.toBe(null);
  const listing = readFileSync(join(dir, "processes.txt"), "utf8");
  const svc = listing.split("\n").find((line) => line.includes(`${dir}/node_modules/.bin/svc ${command}`));
  const tree = subtree(listing, Number(svc?.trim().split(/\s+/)[0]));
  for (let i = 0; i < 120 && tree.some(alive); i++) await sleep(250);
  expect(tree.filter(alive)).toEqual([]);
  return tree.length;
}

describe("a background npm-launched emulator stops with its launcher", () => {
  it.each([
    ["npx svc emulator", "npx svc emulator --port 0 --real-databases"],
    ["npm exec svc -- emulator", "npm exec svc -- emulator --port 0 --real-databases"],
  ])("%s in the background, then kill of the job: the emulator and its PostgreSQL are gone", async (_label, command) => {
    await ensureBuilt();
    const dir = app();
    // Start it, wait for its lines, make it start PostgreSQL (a connection URI), then kill the job.
    const stopped = await killJobAndWait(dir, [
      `${command} > .env.emulator 2> emulator.log &`,
      "until grep -qs SVC_CLAIM_API_HOST .env.emulator; do sleep 0.2; done",
      "set -a; . ./.env.emulator; set +a",
      'curl -sf -H "authorization: Bearer $SVC_API_KEY" "$SVC_API_HOST/projects/$SVC_PROJECT_ID/connection_uri?role_name=neondb_owner&database_name=neondb" > uri.json',
    ], "emulator");
    expect(readFileSync(join(dir, "uri.json"), "utf8")).toContain("postgresql://");
    // The emulator, its PostgreSQL supervisor and the server (at least the postmaster).
    expect(stopped).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(dir, "emulator.log"), "utf8")).toContain("svc emulator: stopping (npm exec, which started it, has exited)");
  }, 120_000);
});

describe("a background npm-launched svc dev stops with its launcher", () => {
  it("npx svc dev in the background, then kill of the job: svc dev and its function processes are gone, the port closed", async () => {
    await ensureBuilt();
    const dir = app();
    writeFileSync(join(dir, "hello.mjs"), 'export default { fetch: () => new Response("hello from dev\\n") };\n');
    const stopped = await killJobAndWait(dir, [
      "npx svc dev --source hello.mjs > dev.log 2>&1 &",
      "until grep -qs 'Watching for changes' dev.log; do sleep 0.2; done",
      "URL=$(grep -o 'http://127.0.0.1:[0-9]*' dev.log | head -1)",
      'curl -sf "$URL" > answer.txt',
      'echo "$URL" > url.txt',
    ], "dev");
    expect(readFileSync(join(dir, "answer.txt"), "utf8")).toBe("hello from dev\n");
    // svc dev and at least the function's process.
    expect(stopped).toBeGreaterThanOrEqual(2);
    await expect(fetch(readFileSync(join(dir, "url.txt"), "utf8").trim())).rejects.toThrow();
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
