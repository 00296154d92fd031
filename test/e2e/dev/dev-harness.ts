/**
 * Runs `svc dev` (the built bin) as a long-lived subprocess in a temporary project, and waits for
 * what it prints and what its functions answer. No timing assertions: every wait polls for a
 * condition and gives up only after a generous deadline.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BIN, ROOT, childEnv } from "../cli/harness.js";

/** A temporary project: `.git` (so the policy search stops), `node_modules` with svc-config and hono. */
export interface DevProject {
  dir: string;
  write(relative: string, content: string): void;
  remove(): void;
}

export function devProject(files: Record<string, string>): DevProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "svc-dev-e2e-")));
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "svc-config"));
  symlinkSync(join(ROOT, "node_modules", "hono"), join(dir, "node_modules", "hono"));
  const write = (relative: string, content: string): void => {
    const file = join(dir, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A running `svc dev`. */
export interface DevRun {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout+stderr printed after `from` characters (default: all). */
  waitForOutput(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

const DEADLINE_MS = 45_000;

export function startDev(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): DevRun {
  // The IPC channel makes svc dev stop if this test process dies without stopping it.
  const child = spawn(process.execPath, [BIN, "dev", ...args], { cwd: options.cwd, env: childEnv({ NO_COLOR: "1", ...options.env }), stdio: ["pipe", "pipe", "pipe", "ipc"] }) as ChildProcessWithoutNullStreams;
  let out = "";
  let err = "";
  let all = "";
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const w of waiters) w();
  };
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    all += d;
    notify();
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    err += d;
    all += d;
    notify();
  });
  // "exit", then the output streams' end (bounded: a grandchild may hold them a moment longer). Not
  // "close": Node never emits it for a child whose IPC channel the parent disconnected.
  const streamsClosed = Promise.all([new Promise((r) => child.stdout.once("close", r)), new Promise((r) => child.stderr.once("close", r))]);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      void Promise.race([streamsClosed, new Promise((r) => setTimeout(r, 2000))]).then(() => {
        resolve({ code, signal });
        notify();
      });
    }),
  );
  let closed = false;
  void exited.then(() => (closed = true));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: (pattern, from = 0) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = all.slice(from).match(pattern);
          if (match !== null) done(() => resolve(match));
          else if (closed) done(() => reject(new Error(`svc dev exited before printing ${pattern}:\n${all}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${pattern} within ${DEADLINE_MS} ms:\n${all}`))), DEADLINE_MS);
        const done = (fn: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          fn();
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      if (!closed) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Polls `probe` until it returns a value `accept` takes, or fails after the deadline with the last value. */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const until = Date.now() + DEADLINE_MS;
  let last: T | undefined;
  for (;;) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
    if (Date.now() > until) throw new Error(`gave up waiting; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}


export { isAlive } from "../../helpers/processes.js";

/** The pids of the `[slug] started|reloaded|restarted (pid N)` lines, in order. */
export function pidsOf(output: string, slug: string): number[] {
  return [...output.matchAll(new RegExp(`\\[${slug}\\] (?:started|reloaded|restarted|still serving the previous version) \\(pid (\\d+)\\)`, "g"))].map((m) => Number(m[1]));
}

/** Upgrades a request to `url` with `upgrade: echo`, writes "ping" and resolves with the first answer on the socket. */
export function upgradeAndPing(url: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = httpRequest(url, { headers: { connection: "upgrade", upgrade: "echo" } });
    req.on("upgrade", (_res, socket) => {
      socket.once("data", (d: Buffer) => {
        resolve(d.toString());
        socket.destroy();
      });
      socket.write("ping");
    });
    req.on("error", reject);
    req.end();
  });
}
