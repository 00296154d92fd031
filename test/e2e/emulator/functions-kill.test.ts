/**
 * Function processes never outlive the emulator: `svc emulator` killed with SIGKILL leaves no
 * child behind (each exits when its IPC channel closes), and the next emulator removes the
 * extraction directory the killed one left. The command prints one line per invocation.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually, isAlive } from "../dev/dev-harness.js";
import { ensureBuilt } from "../cli/harness.js";
import { spawnEmulatorCli } from "./cli-process.js";
import { zipOf } from "./helpers.js";

const children: ChildProcess[] = [];

const startCli = () => spawnEmulatorCli(["--port", "0", "--timings", "0"], children);

beforeAll(ensureBuilt, 300_000);
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
