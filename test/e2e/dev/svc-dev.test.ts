/**
 * `svc dev` end to end: the built bin serving a Hono function and a plain function from a
 * temporary project, with the platform variables of an emulator's branch, called over real HTTP.
 */
import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { emulatorEnv, ensureBuilt, startTestEmulator } from "../cli/harness.js";
import { devProject, eventually, freePort, isAlive, pidsOf, startDev, upgradeAndPing, type DevProject, type DevRun } from "./dev-harness.js";

function policy(apiPort: number, apiEnv = ""): string {
  return `import { defineConfig } from "svc-config/v1";
export default defineConfig({
  functions: {
    api: { name: "API", source: "./functions/api", dev: { port: ${apiPort} }${apiEnv} },
    hello: { name: "Hello", source: "./functions/hello", env: { GREETING: "hi" } },
  },
  triggers: { hourly: { type: "schedule", cron: "0 * * * *", function: "hello", functionPath: "/cron" } },
});
`;
}

const HELLO = (version: string) => `import { parseTriggerDelivery } from "svc-config/functions";
let release = () => {};
const released = new Promise<void>((r) => (release = r));
export default async function (request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/boom") {
    throw new Error("boom in hello");
  }
  if (url.pathname === "/cron") {
    const d = await parseTriggerDelivery(request);
    console.log(\`delivery \${d.type} \${d.trigger.name} \${d.type === "schedule" ? d.data.scheduledAt : ""}\`);
    return new Response("done");
  }
  if (url.pathname === "/events") {
    const enc = new TextEncoder();
    return new Response(new ReadableStream({ async start(c) { c.enqueue(enc.encode("data: one\\n\\n")); await released; c.enqueue(enc.encode("data: two\\n\\n")); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
  }
  if (url.pathname === "/release") { release(); return new Response("released"); }
  if (url.pathname === "/exit") { setImmediate(() => process.exit(1)); return new Response("exiting"); }
  if (url.pathname === "/env") return Response.json({ db: process.env.DATABASE_URL ?? null, branch: process.env.SVC_BRANCH ?? null, api: process.env.SVC_FUNCTION_API_URL ?? null, greeting: process.env.GREETING ?? null, key: process.env.SVC_API_KEY ?? null, path: process.env.PATH ?? null });
  return new Response(\`\${process.env.GREETING} ${version}\`);
}
`;

const API = `import { Hono } from "hono";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
const app = new Hono();
app.get("/", (c) => c.json({ pid: process.pid, mode: process.env.MODE ?? null }));
export default app;
export function upgrade(_req: IncomingMessage, socket: Duplex): void {
  socket.write("HTTP/1.1 101 Switching Protocols\\r\\nupgrade: echo\\r\\nconnection: upgrade\\r\\n\\r\\n");
  socket.on("data", (d) => socket.write(String(d).toUpperCase()));
}
`;

describe("svc dev serving two functions with a branch's variables", () => {
  let emu: RunningEmulator;
  let project: DevProject;
  let dev: DevRun;
  let apiPort = 0;
  let helloUrl = "";
  let apiUrl = "";
  const get = async (url: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    await ensureBuilt();
    emu = await startTestEmulator();
    apiPort = await freePort();
    project = devProject({ "svc.ts": policy(apiPort), "functions/hello/index.ts": HELLO("v1"), "functions/api/index.ts": API });
    dev = startDev(["--trigger", "hourly"], { cwd: project.dir, env: emulatorEnv(emu) });
    await dev.waitForOutput(/Watching for changes/);
    helloUrl = (await dev.waitForOutput(/hello\s+(http:\/\/127\.0\.0\.1:\d+)/))[1] ?? "";
    apiUrl = `http://127.0.0.1:${apiPort}`;
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
    await emu?.close();
    project?.remove();
  });

  it("prints a banner with slugs, URLs and env names, never the values", async () => {
    const banner = dev.stdout();
    expect(banner).toContain(`api    ${apiUrl}`);
    expect(helloUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner).toMatch(/env: DATABASE_URL, DATABASE_URL_UNPOOLED, SVC_BRANCH, SVC_AI_GATEWAY_BASE_URL, SVC_FUNCTION_API_URL, GREETING/);
    expect(banner).toMatch(/Platform variables from branch main \(br-[^)]+\) of project/);
    const env = JSON.parse((await get(`${helloUrl}/env`)).text) as { db: string; branch: string; api: string; greeting: string };
    expect(env.db).toMatch(/^postgres(ql)?:\/\//);
    // The shell's environment is inherited, but not svc's own SVC_* settings: the API key never reaches a function.
    expect(env).toMatchObject({ branch: "main", api: apiUrl, greeting: "hi", key: null, path: process.env.PATH });
    expect(dev.stdout() + dev.stderr()).not.toContain(env.db);
  });

  it("sends --trigger's invocation in the platform's envelope once the functions serve", async () => {
    await dev.waitForOutput(/Trigger hourly sent to hello \(invocation [0-9a-f-]{36}\): 200/);
    await dev.waitForOutput(/\[hello\] delivery schedule hourly \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z/);
  });

  it("serves a plain function and a Hono app, and logs one line per request", async () => {
    expect(await get(`${helloUrl}/x?y=1`)).toEqual({ status: 200, text: "hi v1" });
    expect(JSON.parse((await get(apiUrl)).text)).toMatchObject({ mode: null });
    await dev.waitForOutput(/\[hello\] GET \/x\?y=1 200 [\d.]+ms/);
    await dev.waitForOutput(/\[api\] GET \/ 200 [\d.]+ms/);
  });

  it("answers a throwing handler with 500 and its stack naming the user's file and line", async () => {
    const res = await get(`${helloUrl}/boom`);
    expect(res.status).toBe(500);
    expect(res.text).toMatch(/^Internal Server Error\n\nError: boom in hello\n\s+at .*functions\/hello\/index\.ts:7:11/);
    expect(res.text).not.toMatch(/host-child|handler-contract/);
    await dev.waitForOutput(/\[hello\] Error: boom in hello\n\[hello\]\s+at .*functions\/hello\/index\.ts:7:11/);
  });

  it("streams server-sent events while other requests are served", async () => {
    const events = await fetch(`${helloUrl}/events`);
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    expect((await get(`${helloUrl}/release`)).text).toBe("released");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: two\n\n");
  });

  it("passes a WebSocket upgrade to the module's upgrade export", async () => {
    const echoed = await upgradeAndPing(`${apiUrl}/ws`);
    expect(echoed).toBe("PING");
  });

  it("reloads an edited function with the new code and leaves the other one running", async () => {
    const apiPid = (JSON.parse((await get(apiUrl)).text) as { pid: number }).pid;
    const from = dev.stdout().length + dev.stderr().length;
    project.write("functions/hello/index.ts", HELLO("v2"));
    expect((await eventually(() => get(`${helloUrl}/x`), (r) => r.text === "hi v2")).status).toBe(200);
    await dev.waitForOutput(/\[hello\] reloaded \(pid \d+\)/, from);
    expect((JSON.parse((await get(apiUrl)).text) as { pid: number }).pid).toBe(apiPid);
    expect(dev.stdout().slice(from)).not.toMatch(/\[api\] (reloaded|started)/);
  });

  it("keeps the previous version serving when a build fails, naming file:line:column", async () => {
    const from = dev.stdout().length + dev.stderr().length;
    project.write("functions/hello/index.ts", "export default (\n");
    await dev.waitForOutput(/\[hello\] .*functions\/hello\/index\.ts:2:\d+: .*\n(?:\[hello\] .*\n)*\[hello\] still serving the previous version/, from);
    expect((await get(`${helloUrl}/x`)).text).toBe("hi v2");
    project.write("functions/hello/index.ts", HELLO("v3"));
    await eventually(() => get(`${helloUrl}/x`), (r) => r.text === "hi v3");
  });

  it("restarts only the function whose definition svc.ts changed", async () => {
    const helloPids = pidsOf(dev.stdout(), "hello");
    const apiPid = (JSON.parse((await get(apiUrl)).text) as { pid: number }).pid;
    project.write("svc.ts", policy(apiPort, ', env: { MODE: "edited" }'));
    const after = await eventually(async () => JSON.parse((await get(apiUrl)).text) as { pid: number; mode: string | null }, (r) => r.mode === "edited");
    expect(after.pid).not.toBe(apiPid);
    expect(pidsOf(dev.stdout(), "hello")).toEqual(helloPids);
  });

  it("restarts a function that exits its own process", async () => {
    const from = dev.stdout().length + dev.stderr().length;
    expect((await get(`${helloUrl}/exit`)).text).toBe("exiting");
    await dev.waitForOutput(/\[hello\] exited \(code 1\); restarting\n(?:.*\n)*\[hello\] restarted \(pid \d+\)/, from);
    expect((await get(`${helloUrl}/x`)).text).toBe("hi v3");
  });

  it("leaves no function process behind when svc dev itself is killed with SIGKILL", async () => {
    const served = [...pidsOf(dev.stdout(), "hello"), ...pidsOf(dev.stdout(), "api")].filter(isAlive);
    expect(served.length).toBeGreaterThanOrEqual(2);
    // Every child of svc dev: the functions, the spare host waiting for the next reload, esbuild's service.
    const pids = execFileSync("ps", ["-o", "pid=", "--ppid", String(dev.child.pid)], { encoding: "utf8" }).split("\n").map(Number).filter((pid) => pid > 0);
    expect(pids).toEqual(expect.arrayContaining(served));
    expect(pids.length).toBeGreaterThan(served.length);
    dev.child.kill("SIGKILL");
    await dev.exited;
    await eventually(async () => pids.filter(isAlive), (alive) => alive.length === 0);
  });
});

describe("svc dev refusing to start", () => {
  it("names the function and the port when its dev.port is taken, and starts nothing", async () => {
    await ensureBuilt();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const project = devProject({ "svc.ts": policy(port), "functions/hello/index.ts": HELLO("v1"), "functions/api/index.ts": API });
    try {
      const dev = startDev([], { cwd: project.dir });
      const { code } = await dev.exited;
      expect(code).toBe(1);
      expect(dev.stderr()).toContain(`Function api: port ${port} (its dev.port) is in use by another process.`);
      expect(dev.stderr()).toContain("functions.api.dev.port");
      expect(pidsOf(dev.stdout(), "hello")).toEqual([]);
    } finally {
      blocker.close();
      project.remove();
    }
  }, 60_000);
});

describe("svc dev following svc.ts", () => {
  it("starts a function added to svc.ts and stops one removed from it; the other one keeps serving", async () => {
    await ensureBuilt();
    const [keptPort, goingPort, newPort] = [await freePort(), await freePort(), await freePort()];
    const fn = (slug: string, port: number): string => `${slug}: { name: "${slug}", source: "./${slug}.mjs", dev: { port: ${port} } }`;
    // Each answers its slug, its pid and the names of the other functions' URL variables it was given.
    const handler = (slug: string): string =>
      `export default () => new Response("${slug} " + process.pid + " " + Object.keys(process.env).filter((k) => /^SVC_FUNCTION_.*_URL$/.test(k)).sort().join(","));\n`;
    const project = devProject({ "svc.ts": `export default { functions: { ${fn("kept", keptPort)}, ${fn("going", goingPort)} } };\n`, "kept.mjs": handler("kept"), "going.mjs": handler("going"), "fresh.mjs": handler("fresh") });
    const dev = startDev(["--no-branch-env"], { cwd: project.dir });
    try {
      await dev.waitForOutput(/Watching for changes/);
      expect(await (await fetch(`http://127.0.0.1:${goingPort}/`)).text()).toMatch(/^going \d+ /);
      const keptBefore = await (await fetch(`http://127.0.0.1:${keptPort}/`)).text();
      expect(keptBefore).toMatch(/^kept \d+ .*SVC_FUNCTION_GOING_URL/);
      const from = dev.stdout().length + dev.stderr().length;
      project.write("svc.ts", `export default { functions: { ${fn("kept", keptPort)}, ${fn("fresh", newPort)} } };\n`);
      await dev.waitForOutput(/\[going\] removed from svc\.ts; stopped/, from);
      expect(await eventually(async () => (await fetch(`http://127.0.0.1:${newPort}/`)).text(), (text) => text.startsWith("fresh "))).toMatch(/^fresh \d+ /);
      await expect(fetch(`http://127.0.0.1:${goingPort}/`)).rejects.toThrow();
      // The kept function was not rebuilt, but restarted with the new set of URLs: fresh's, not going's.
      await dev.waitForOutput(/\[kept\] restarted: SVC_FUNCTION_FRESH_URL, SVC_FUNCTION_GOING_URL changed/, from);
      const keptAfter = await (await fetch(`http://127.0.0.1:${keptPort}/`)).text();
      expect(keptAfter).toContain("SVC_FUNCTION_FRESH_URL");
      expect(keptAfter).not.toContain("SVC_FUNCTION_GOING_URL");
      expect(keptAfter.split(" ")[1]).not.toBe(keptBefore.split(" ")[1]);
    } finally {
      await dev.stop();
      project.remove();
    }
  }, 90_000);
});

describe("svc dev and an edit made while the first build runs", () => {
  it("rebuilds once the watcher starts: the edit is not lost", async () => {
    await ensureBuilt();
    const port = await freePort();
    // The custom bundler edits its own source as it builds: an edit no watcher could have seen yet.
    const policy = `import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
export default {
  functions: {
    late: {
      name: "late",
      source: "./late",
      dev: { port: ${port} },
      bundler: async (fn) => {
        const file = join(fn.sourcePath, "version.txt");
        const version = readFileSync(file, "utf8").trim();
        if (version === "v1") writeFileSync(file, "v2\\n");
        return { "index.mjs": \`export default () => new Response(\${JSON.stringify(version)});\` };
      },
    },
  },
};
`;
    const project = devProject({ "svc.ts": policy, "late/version.txt": "v1\n" });
    const dev = startDev(["--no-branch-env"], { cwd: project.dir });
    try {
      await dev.waitForOutput(/Watching for changes/);
      expect(await eventually(async () => (await fetch(`http://127.0.0.1:${port}/`)).text(), (text) => text === "v2")).toBe("v2");
      expect(dev.stdout()).toMatch(/\[late\] reloaded/);
    } finally {
      await dev.stop();
      project.remove();
    }
  }, 60_000);
});

describe("svc dev stopping", () => {
  it.each(["SIGINT", "SIGTERM", "disconnect"] as const)("stops every function on %s (of its parent's IPC channel) and exits 0", async (signal) => {
    await ensureBuilt();
    const project = devProject({ "one.mjs": 'export default () => new Response("one");\n' });
    try {
      const dev = startDev(["--source", "one.mjs", "--no-branch-env"], { cwd: project.dir, env: { PORT: String(await freePort()) } });
      await dev.waitForOutput(/Watching for changes/);
      expect(dev.stdout()).toContain("No platform variables (--no-branch-env)");
      const pids = pidsOf(dev.stdout(), "one");
      expect(pids).toHaveLength(1);
      if (signal === "disconnect") dev.child.disconnect();
      else dev.child.kill(signal);
      expect((await dev.exited).code).toBe(0);
      expect(dev.stderr()).toContain("svc dev stopped; no function process is left.");
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      project.remove();
    }
  }, 60_000);
});
