/**
 * Function processes never outlive the emulator: `svc emulator` killed with SIGKILL leaves no
 * child behind (each exits when its IPC channel closes), and the next emulator removes the
 * extraction directory the killed one left. The command prints one line per invocation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, isAlive } from "../dev/dev-harness.js";
import { zipOf } from "./helpers.js";

const SCRIPT = fileURLToPath(new URL("../../../fixtures/emulator/run-cli.ts", import.meta.url));
const children: ChildProcess[] = [];

/** `svc emulator --port 0 --timings 0` from the sources; resolves its printed lines. */
function startCli(): { child: ChildProcess; env: Promise<Record<string, string>>; stderr: () => string; exit: Promise<unknown> } {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, "--port", "0", "--timings", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise((resolve) => child.on("exit", resolve));
  const env = new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n").filter((l) => l.startsWith("SVC_"));
      if (lines.length >= 5) resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])));
    });
    void exit.then(() => reject(new Error(`svc emulator exited before it was ready: ${err}`)));
  });
  return { child, env, stderr: () => err, exit };
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

describe("svc emulator and its function processes", () => {
  it("leaves no function process behind after kill -9, and the next run removes the killed one's files", async () => {
    const first = startCli();
    const env = await first.env;
    const headers = { authorization: `Bearer ${env.SVC_API_KEY}` };
    const fn = `${env.SVC_API_HOST}/projects/${env.SVC_PROJECT_ID}/branches/${env.SVC_BRANCH_ID}/functions/pid`;
    const form = new FormData();
    form.append("zip", new Blob([await zipOf({ "index.mjs": "export default () => Response.json({ pid: process.pid });" })]), "bundle.zip");
    form.append("runtime", "nodejs24");
    expect((await fetch(`${fn}/deployments`, { method: "POST", headers, body: form })).status).toBe(201);
    const url = ((await (await fetch(fn, { headers })).json()) as { function: { invocation_url: string } }).function.invocation_url;
    const { pid } = (await (await fetch(`${url}who`)).json()) as { pid: number };
    expect(isAlive(pid)).toBe(true);
    await eventually(async () => first.stderr(), (text) => text.includes(`fn ${env.SVC_BRANCH_ID}/pid http GET /who 200`));
    const leftover = readdirSync(tmpdir()).filter((name) => name.startsWith(`svc-emulator-fn-${first.child.pid}-`));
    expect(leftover).toHaveLength(1);

    first.child.kill("SIGKILL");
    await first.exit;
    await eventually(async () => isAlive(pid), (up) => !up);
    await expect(fetch(url)).rejects.toThrow();

    const second = startCli();
    await second.env;
    expect(existsSync(join(tmpdir(), leftover[0] ?? ""))).toBe(false);
    second.child.kill("SIGTERM");
    await second.exit;
  }, 60_000);
});
