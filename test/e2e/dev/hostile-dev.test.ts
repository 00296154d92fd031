/**
 * `svc dev` attacked: hostile sources (FIFOs, symlinks out of the project, odd file names),
 * reserved env names, ports in use, modules that exit or never answer. Each row: what the user
 * sees, the exit code, and that no function process outlives `svc dev`.
 */
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/harness.js";
import { devProject, isAlive, pidsOf, startDev, type DevProject } from "./dev-harness.js";

const OK = 'export default () => new Response("ok");\n';
const policy = (functions: string, rest = ""): string => `import { defineConfig } from "svc-config/v1";\nexport default defineConfig({ functions: { ${functions} }${rest} });\n`;

let blocker: Server;
let busyPort = 0;
const projects: DevProject[] = [];

function project(files: Record<string, string>): DevProject {
  const p = devProject(files);
  projects.push(p);
  return p;
}

beforeAll(async () => {
  await ensureBuilt();
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  busyPort = (blocker.address() as { port: number }).port;
}, 180_000);

afterAll(() => {
  blocker?.close();
  for (const p of projects) p.remove();
});

/** A project that `svc dev` must refuse, and what its error says. */
interface RefusalRow {
  name: string;
  files: Record<string, string>;
  /** [target, link name]: a symlink made in the project. */
  link?: [string, string];
  args: string[];
  says: string[];
}

describe("svc dev refuses before starting anything", () => {
  it.each<RefusalRow>([
    {
      name: "a function env name the platform reserves",
      files: { "svc.ts": policy('api: { name: "A", source: "./fn", env: { SVC_TOKEN: "x", DATABASE_URL: "y" } }'), "fn/index.ts": OK },
      args: [],
      says: ["functions.api.env.SVC_TOKEN", "env name SVC_TOKEN is reserved", "functions.api.env.DATABASE_URL"],
    },
    {
      name: "a source that resolves outside the project through a symlink",
      files: { "svc.ts": policy('api: { name: "A", source: "./linked" }') },
      link: ["/tmp", "linked"],
      args: [],
      says: ["functions.api.source", "outside the policy's directory", "--allow-external-sources"],
    },
    {
      name: "--port held by another process",
      files: { "one.mjs": OK },
      args: ["--source", "one.mjs", "--no-branch-env", "--port", "BUSY"],
      says: ["Function one: port BUSY (--port) is in use by another process."],
    },
    {
      name: "--port without --source",
      files: { "svc.ts": policy('api: { name: "A", source: "./fn" }'), "fn/index.ts": OK },
      args: ["--port", "3000"],
      says: ["--port goes with --source"],
    },
    {
      name: "an unknown --trigger",
      files: { "svc.ts": policy('api: { name: "A", source: "./fn" }'), "fn/index.ts": OK },
      args: ["--trigger", "nightly\u001b[2J"],
      says: ["svc.ts declares no trigger", "\\u001b[2J", "(it declares: none)"],
    },
  ])("$name: exit 1, naming the key or port", async ({ files, args, says, link }) => {
    const p = project(files);
    if (link !== undefined) symlinkSync(link[0], join(p.dir, link[1]));
    const dev = startDev(args.map((a) => a.replace("BUSY", String(busyPort))), { cwd: p.dir });
    const { code } = await dev.exited;
    expect(code).toBe(1);
    for (const text of says) expect(dev.stderr()).toContain(text.replace("BUSY", String(busyPort)));
    expect(dev.stderr()).not.toContain("\u001b[2J");
    expect(dev.stdout()).not.toContain("Watching for changes");
  }, 60_000);
});

describe("svc dev keeps serving what it can", () => {
  it("reports a source that is a FIFO, a module that exits while loading and one without a handler, serves the rest, and stops cleanly", async () => {
    const p = project({
      "svc.ts": policy(
        ['fifo: { name: "F", source: "./pipe" }', 'quits: { name: "Q", source: "./quits" }', 'none: { name: "N", source: "./none" }', 'good: { name: "G", source: "./good" }', 'hangs: { name: "H", source: "./hangs" }'].join(", "),
        ', triggers: { stuck: { type: "schedule", cron: "0 * * * *", function: "hangs" } }',
      ),
      "quits/index.ts": "process.exit(0);\nexport default () => new Response('never');\n",
      "none/index.ts": "export const handler = () => new Response('wrong shape');\n",
      "good/index.ts": OK,
      "hangs/index.ts": "export default () => new Promise<Response>(() => {});\n",
    });
    execFileSync("mkfifo", [join(p.dir, "pipe")]);
    // --trigger sends to a handler that never answers: svc dev serves on and still stops.
    const dev = startDev(["--no-branch-env", "--trigger", "stuck"], { cwd: p.dir });
    await dev.waitForOutput(/Watching for changes/);
    expect(dev.stderr()).toMatch(/\[fifo\] build failed: .*pipe is neither a file nor a directory/);
    expect(dev.stderr()).toMatch(/\[quits\] the function host for .* exited before listening/);
    expect(dev.stderr()).toMatch(/\[none\] no request handler found in .*: it exports handler \(function\)/);
    expect(dev.stdout()).toMatch(/fifo\s+http:\/\/127\.0\.0\.1:\d+ {2}\(not serving yet/);
    const goodUrl = dev.stdout().match(/good\s+(http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? "";
    expect(await (await fetch(goodUrl)).text()).toBe("ok");
    // A request that never gets an answer does not keep svc dev from stopping.
    const hangsUrl = dev.stdout().match(/hangs\s+(http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? "";
    const pending = fetch(hangsUrl).then(() => "answered", () => "cut off");
    await dev.waitForOutput(/\[hangs\] started/);
    const pids = [...pidsOf(dev.stdout(), "good"), ...pidsOf(dev.stdout(), "hangs")];
    expect(pids).toHaveLength(2);
    await dev.stop();
    expect((await dev.exited).code).toBe(0);
    expect(await pending).toBe("cut off");
    expect(dev.stdout() + dev.stderr()).not.toContain("Trigger stuck sent");
    expect(pids.filter(isAlive)).toEqual([]);
  }, 90_000);

  it("serves a --source file with an odd name under a safe slug and prints nothing raw", async () => {
    const name = "we ird\u202e\u200b.mjs";
    const p = project({ [name]: OK });
    const dev = startDev(["--source", name, "--no-branch-env"], { cwd: p.dir });
    await dev.waitForOutput(/Watching for changes/);
    const url = dev.stdout().match(/weird\s+(http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? "";
    expect(await (await fetch(`${url}/\u202e%0a`)).text()).toBe("ok");
    await dev.waitForOutput(/\[weird\] GET \/%E2%80%AE%0a 200/);
    await dev.stop();
    expect(dev.stdout() + dev.stderr()).not.toMatch(/[\u202e\u200b]/);
  }, 60_000);
});
