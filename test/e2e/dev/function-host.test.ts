/**
 * The function host over real HTTP: real child processes serving modules written to a temp
 * directory, called with Node's fetch and raw sockets.
 */
import { execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { isAlive } from "../../helpers/processes.js";
import { eventually, upgradeAndPing } from "./dev-harness.js";
import { FunctionHostError, SpareHosts, startFunctionProcess, type FunctionProcess, type RequestRecord, type StartFunctionProcessOptions } from "../../../src/runtime/index.js";


/** Polls until `done()` or 10 s have passed (the caller asserts afterwards). */
async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i += 1) await new Promise((r) => setTimeout(r, 50));
}

const dir = mkdtempSync(join(tmpdir(), "svc-host-"));
const running: FunctionProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop(100)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function module(name: string, source: string): string {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

async function start(options: StartFunctionProcessOptions): Promise<FunctionProcess> {
  const fn = await startFunctionProcess(options);
  running.push(fn);
  return fn;
}

async function startFailure(options: StartFunctionProcessOptions): Promise<FunctionHostError> {
  try {
    running.push(await startFunctionProcess(options));
  } catch (err) {
    expect(err).toBeInstanceOf(FunctionHostError);
    return err as FunctionHostError;
  }
  throw new Error("the host started");
}

const ECHO = `
export default async function (request) {
  const url = new URL(request.url);
  const body = request.method === "POST" ? await request.text() : "";
  return Response.json({ method: request.method, path: url.pathname + url.search, body, greeting: process.env.GREETING ?? null, home: process.env.HOME ?? null, header: request.headers.get("x-test") });
}
`;

describe("the function host", () => {
  it("serves a default function: path, query, body, headers and exactly the given environment", async () => {
    const records: RequestRecord[] = [];
    const fn = await start({ entry: module("echo.mjs", ECHO), env: { GREETING: "hello" }, onRequest: (r) => records.push(r) });
    expect(fn.url).toBe(`http://127.0.0.1:${fn.port}`);
    const got = await fetch(`${fn.url}/a/b?x=1`, { method: "POST", body: "payload", headers: { "x-test": "yes" } });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ method: "POST", path: "/a/b?x=1", body: "payload", greeting: "hello", home: null, header: "yes" });
    await fn.stop();
    expect(records).toEqual([expect.objectContaining({ method: "POST", path: "/a/b?x=1", status: 200 })]);
    expect(records[0]?.error).toBeUndefined();
  });

  it("serves default.fetch with the object as `this`, and relays what the function prints", async () => {
    const lines: string[] = [];
    const entry = module("app.mjs", `export default { name: "app", fetch(req) { console.log("handling " + new URL(req.url).pathname); return new Response(this.name); } };`);
    const fn = await start({ entry, onOutput: (line, stream) => lines.push(`${stream}: ${line}`) });
    expect(await (await fetch(`${fn.url}/x`)).text()).toBe("app");
    await fn.stop();
    expect(lines).toContain("stdout: handling /x");
  });

  it("answers a throwing handler with 500 text/plain, and shows the stack only when asked", async () => {
    const entry = module("throws.mjs", `export default function () {\n  throw new Error("kaboom");\n}\n`);
    const records: RequestRecord[] = [];
    const quiet = await start({ entry, onRequest: (r) => records.push(r) });
    const hidden = await fetch(quiet.url);
    expect(hidden.status).toBe(500);
    expect(hidden.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await hidden.text()).toBe("Internal Server Error");
    const loud = await start({ entry, exposeStacks: true });
    const shown = await (await fetch(loud.url)).text();
    expect(shown).toMatch(/^Internal Server Error\n\nError: kaboom\n {4}at .*throws\.mjs:2:9/);
    await quiet.stop();
    expect(records[0]?.error).toContain("kaboom");
  });

  it("streams a response as it is produced while other requests are served (server-sent events)", async () => {
    const entry = module(
      "stream.mjs",
      `let release;
const released = new Promise((r) => (release = r));
export default function (request) {
  if (new URL(request.url).pathname === "/release") { release(); return new Response("released"); }
  const enc = new TextEncoder();
  return new Response(new ReadableStream({ async start(c) { c.enqueue(enc.encode("data: one\\n\\n")); await released; c.enqueue(enc.encode("data: two\\n\\n")); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
}`,
    );
    const fn = await start({ entry });
    const events = await fetch(`${fn.url}/events`);
    expect(events.headers.get("content-type")).toBe("text/event-stream");
    const reader = events.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe("data: one\n\n");
    // The stream is still open: a second request in flight releases it.
    expect(await (await fetch(`${fn.url}/release`)).text()).toBe("released");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: two\n\n");
  });

  it("passes WebSocket-style upgrades to the module's upgrade export, and to fetch when there is none", async () => {
    const entry = module(
      "upgrade.mjs",
      `export default () => new Response("plain fetch", { status: 426 });
export function upgrade(req, socket, head) {
  socket.write("HTTP/1.1 101 Switching Protocols\\r\\nupgrade: echo\\r\\nconnection: upgrade\\r\\n\\r\\n");
  socket.on("data", (d) => socket.write(d.toString().toUpperCase()));
}`,
    );
    const fn = await start({ entry });
    const echoed = await upgradeAndPing(`${fn.url}/ws`);
    expect(echoed).toBe("PING");
    const plain = await start({ entry: module("no-upgrade.mjs", `export default () => new Response("plain fetch", { status: 426 });`) });
    const answer = await fetch(plain.url, { headers: { upgrade: "websocket", connection: "upgrade" } }).catch((err: unknown) => err);
    // Node's fetch refuses to send an Upgrade header itself; a raw request shows what the host does.
    expect(answer).toBeInstanceOf(Error);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(plain.url, { headers: { connection: "upgrade", upgrade: "echo" } });
      req.on("response", (res) => resolve(res.statusCode ?? 0));
      req.on("upgrade", () => reject(new Error("upgraded")));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(426);
  });

  it("refuses a module without a handler, naming the file and what it exports", async () => {
    const entry = module("none.mjs", `export const config = { a: 1 }; export function GET() {}`);
    const err = await startFailure({ entry });
    expect(err.reason).toBe("no-handler");
    expect(err.message).toContain(`no request handler found in ${entry}: it exports GET (function), config (object)`);
  });

  it("reports a module that throws while loading, with its stack", async () => {
    const err = await startFailure({ entry: module("load.mjs", `throw new Error("top-level failure");`) });
    expect(err.reason).toBe("load-failed");
    expect(err.message).toContain("top-level failure");
  });

  it("refuses an entry that is a FIFO, a directory, missing, or a symlink to a FIFO, without blocking", async () => {
    const fifo = join(dir, "fifo.mjs");
    execFileSync("mkfifo", [fifo]);
    const link = join(dir, "link-to-fifo.mjs");
    symlinkSync(fifo, link);
    for (const entry of [fifo, dir, join(dir, "missing.mjs"), link]) {
      const err = await startFailure({ entry });
      expect(err.reason).toBe("not-a-file");
      expect(err.message).toContain("is not a regular file");
    }
    const target = module("real.mjs", `export default () => new Response("via link");`);
    const good = join(dir, "link-to-real.mjs");
    symlinkSync(target, good);
    expect(await (await fetch((await start({ entry: good })).url)).text()).toBe("via link");
  });

  it("names a port that is taken", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const err = await startFailure({ entry: module("port.mjs", `export default () => new Response("x");`), port });
      expect(err.reason).toBe("port-in-use");
      expect(err.message).toBe(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      blocker.close();
    }
  });

  it("answers a handler that never answers with 504 after the first-byte limit, and records it as timed out", async () => {
    const records: RequestRecord[] = [];
    const fn = await start({ entry: module("hang.mjs", `export default (request) => new URL(request.url).pathname === "/hang" ? new Promise(() => {}) : new Response("", { status: 504 });`), firstByteTimeoutMs: 300, onRequest: (r) => records.push(r) });
    const got = await fetch(`${fn.url}/hang`);
    expect(got.status).toBe(504);
    expect(await got.text()).toBe("Gateway Timeout");
    // A 504 the handler sent itself is not a timeout.
    expect((await fetch(`${fn.url}/own`)).status).toBe(504);
    await eventually(async () => records.length, (n) => n === 2);
    expect(records.map((r) => [r.path, r.status, r.timedOut])).toEqual([["/hang", 504, true], ["/own", 504, undefined]]);
  });

  it("reports a function that exits its process as not stopped", async () => {
    const fn = await start({ entry: module("exit.mjs", `export default () => { setImmediate(() => process.exit(3)); return new Response("bye"); };`) });
    expect(await (await fetch(fn.url)).text()).toBe("bye");
    expect(await fn.exited).toEqual({ code: 3, signal: null, stopped: false });
  });

  it("answers huge headers with 431 and streams a large body through", async () => {
    const fn = await start({ entry: module("size.mjs", ECHO.replace("await request.text()", "String((await request.arrayBuffer()).byteLength)")) });
    const big = await fetch(fn.url, { headers: { "x-big": "a".repeat(64 * 1024) } });
    expect(big.status).toBe(431);
    const body = new Uint8Array(32 * 1024 * 1024);
    const posted = await fetch(fn.url, { method: "POST", body });
    expect(((await posted.json()) as { body: string }).body).toBe(String(body.byteLength));
  });

  it("leaves no child behind when its parent is killed with SIGKILL", async () => {
    const entry = module("orphan.mjs", `export default () => new Response("x");`);
    const runtime = pathToFileURL(join(import.meta.dirname, "../../../src/runtime/index.ts")).href;
    const script = module("parent.mjs", `import { startFunctionProcess } from ${JSON.stringify(runtime)};
const fn = await startFunctionProcess({ entry: ${JSON.stringify(entry)} });
console.log(fn.pid);
setInterval(() => {}, 1000);`);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const parent = spawn(process.execPath, ["--import", tsx, script], { stdio: ["ignore", "pipe", "inherit"] });
    const childPid = await new Promise<number>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
    expect(isAlive(childPid)).toBe(true);
    parent.kill("SIGKILL");
    await waitUntil(() => !isAlive(childPid));
    expect(isAlive(childPid)).toBe(false);
  });

  it("takes a booted spare: the function gets exactly its own environment, directory and port", async () => {
    const spares = new SpareHosts({ env: { SPARE_ONLY: "from the spare's start", PATH: process.env.PATH ?? "" }, cwd: tmpdir() });
    try {
      await waitUntil(() => spares.readyPid !== undefined);
      const sparePid = spares.readyPid;
      const entry = module("spare.mjs", `export default () => Response.json({ env: { ...process.env }, cwd: process.cwd() });`);
      const fn = await start({ entry, env: { GREETING: "own" }, cwd: dir, spares });
      expect(fn.pid).toBe(sparePid);
      expect(await (await fetch(fn.url)).json()).toEqual({ env: { GREETING: "own" }, cwd: dir });
      // A new spare boots for the next one; an env that changes a start-up variable gets a fresh process.
      await waitUntil(() => spares.readyPid !== undefined);
      const next = spares.readyPid;
      const fresh = await start({ entry, env: { NODE_OPTIONS: "--no-warnings" }, cwd: dir, spares });
      expect(fresh.pid).not.toBe(next);
      expect(spares.readyPid).toBe(next);
    } finally {
      spares.close();
    }
  });

  it("stops: the process is gone, and stop() twice is fine", async () => {
    const fn = await start({ entry: module("stop.mjs", `export default () => new Response("x");`) });
    await Promise.all([fn.stop(), fn.stop()]);
    expect((await fn.exited).stopped).toBe(true);
    expect(isAlive(fn.pid)).toBe(false);
  });
});
