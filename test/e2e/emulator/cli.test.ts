import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/harness.js";
import { spawnEmulatorCli } from "./cli-process.js";

const children: ChildProcess[] = [];
const spawnCli = (args: string[]) => spawnEmulatorCli(args, children);

beforeAll(ensureBuilt, 300_000);
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

describe("svc emulator (process)", () => {
  it("prints exactly the five SVC_ lines once listening, serves them, and exits 0 on SIGTERM", async () => {
    const run = spawnCli(["--port", "0", "--timings", "0"]);
    const env = await run.env;
    expect(Object.keys(env)).toEqual(["SVC_API_HOST", "SVC_API_KEY", "SVC_PROJECT_ID", "SVC_BRANCH_ID", "SVC_CLAIM_API_HOST"]);
    expect(env["SVC_API_HOST"]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    expect(env["SVC_BRANCH_ID"]).toMatch(/^br-/);
    expect(env["SVC_CLAIM_API_HOST"]).toBe(env["SVC_API_HOST"]?.replace(/\/api\/v2$/, ""));
    const res = await fetch(`${env["SVC_API_HOST"]}/projects/${env["SVC_PROJECT_ID"]}`, { headers: { authorization: `Bearer ${env["SVC_API_KEY"]}` } });
    expect(res.status).toBe(200);
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
    expect(run.stdout().trim().split("\n")).toHaveLength(5);
  });

  it("logs one line per request on stderr with --verbose, never on stdout, without secrets", async () => {
    const run = spawnCli(["--port", "0", "--verbose"]);
    const env = await run.env;
    await fetch(`${env["SVC_API_HOST"]}/projects?search=x`, { headers: { authorization: `Bearer ${env["SVC_API_KEY"]}`, "x-request-id": "rid-verbose-1" } });
    while (!run.stderr().includes("rid-verbose-1")) await new Promise((r) => setTimeout(r, 25));
    expect(run.stderr()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v2\/projects 200 [\d.]+ms rid=rid-verbose-1 fault=-$/m);
    expect(run.stderr()).not.toContain(env["SVC_API_KEY"]);
    expect(run.stderr()).not.toContain("search=x");
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
    expect(run.stdout().trim().split("\n")).toHaveLength(5);
  });

  it.each([
    ["SIGTERM", 0],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)("--verbose: a request answered just before %s still has its log line on stderr (exit %i)", async (signal, code) => {
    const run = spawnCli(["--port", "0", "--verbose"]);
    const env = await run.env;
    const res = await fetch(`${env["SVC_API_HOST"]}/projects`, { headers: { authorization: `Bearer ${env["SVC_API_KEY"]}`, "x-request-id": `rid-before-${signal}` } });
    await res.text();
    run.child.kill(signal);
    expect(await run.exit).toBe(code);
    expect(run.stderr()).toContain(`rid=rid-before-${signal}`);
    expect(run.stderr()).toMatch(/svc emulator: stopping\n$/);
  });

  it("exits 130 on SIGINT and keeps a fixed --api-key", async () => {
    const run = spawnCli(["--port", "0", "--api-key", "svcemu_cli_test_key_123456"]);
    const env = await run.env;
    expect(env["SVC_API_KEY"]).toBe("svcemu_cli_test_key_123456");
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
  });

  it.each([
    [["--latency", "fast"], /--latency/],
    [["--faults", "status=503,phase=after"], /phase=after/],
    [["--timings", "op_walk=1"], /unknown timing/],
    [["--seed", "/nonexistent/seed.json"], /cannot read/],
    [["--legacy-auth", "later"], /--legacy-auth/],
    [["--postgres", "mysql://x"], /postgres/],
  ])("exits 1 with a message for bad arguments (%#)", async (args, message) => {
    const run = spawnCli(["--port", "0", ...args]);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(message);
    expect(run.stdout()).toBe("");
  });

  it("does not keep a script alive that forgot close(): startEmulator then exitCode 1 exits 1", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../../../fixtures/emulator/start-and-exit.ts", import.meta.url))], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect([code, out.trim()]).toEqual([1, "health 200"]);
  });

  it("exits 2 when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = spawnCli(["--port", String(port)]);
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toMatch(/unavailable/);
    } finally {
      blocker.close();
    }
  });
});
