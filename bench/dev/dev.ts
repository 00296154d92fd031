/**
 * `svc dev` (`npm run bench:dev`; run by hand, never by the tests), on the built package
 * (`dist/`, as installed), in a generated project of trivial functions:
 * - cold start: from spawning `svc dev` to the first 200 of every function, for 1 and 20;
 * - reload: from writing a function's file to the first response of the new code (target ≤ 300 ms);
 * - memory: resident size of an idle function process (the platform gives an instance 2048 MiB).
 * Prints each figure next to its target, with the load average. Asserts nothing.
 *
 *   npm run build && npm run bench:dev [-- --runs 5]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/svc.js", import.meta.url));
const TARGET = { reloadMs: 300 } as const;

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 5;

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function range(values: number[]): string {
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
}

function handler(slug: string, version: number): string {
  return `export default () => new Response("${slug} v${version}");\n`;
}

/** A project with `count` functions f0…f(count-1), each `functions/<slug>/index.ts`. */
function writeProject(dir: string, count: number): string[] {
  mkdirSync(join(dir, ".git"), { recursive: true });
  const slugs = Array.from({ length: count }, (_, i) => `f${i}`);
  const entries = slugs.map((s) => `    ${s}: { name: "${s}", source: "./functions/${s}" },`).join("\n");
  writeFileSync(join(dir, "svc.ts"), `import { defineConfig } from "svc-config/v1";\nexport default defineConfig({\n  functions: {\n${entries}\n  },\n});\n`);
  for (const s of slugs) {
    mkdirSync(join(dir, "functions", s), { recursive: true });
    writeFileSync(join(dir, "functions", s, "index.ts"), handler(s, 1));
  }
  return slugs;
}

interface Session {
  child: ChildProcess;
  output: () => string;
}

function startDev(dir: string): Session {
  const child = spawn(process.execPath, [BIN, "dev", "--no-branch-env"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), NO_COLOR: "1" } });
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (out += d));
  return { child, output: () => out };
}

async function stopDev(session: Session): Promise<void> {
  const exited = new Promise((r) => session.child.once("close", r));
  session.child.kill("SIGTERM");
  await exited;
}

/** Polls `url` every 2 ms until it answers 200 with `body` (any body when undefined). */
async function until200(url: string, body?: string): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(url);
      const text = await res.text();
      if (res.status === 200 && (body === undefined || text === body)) return;
    } catch {
      // Not listening yet.
    }
    await sleep(2);
  }
}

/** The URLs the banner prints, by slug (waits for the banner). */
async function urlsOf(session: Session, slugs: string[]): Promise<Map<string, string>> {
  while (!session.output().includes("Watching for changes")) {
    if (session.child.exitCode !== null) throw new Error(`svc dev exited:\n${session.output()}`);
    await sleep(5);
  }
  return new Map(slugs.map((s) => [s, session.output().match(new RegExp(`^  ${s}\\s+(http://\\S+)`, "m"))?.[1] ?? ""]));
}

/** Spawn to every function's first 200, ms. Ports are 8787 upward in slug order when free, as the banner then confirms. */
async function coldStart(dir: string, slugs: string[]): Promise<{ ms: number; session: Session }> {
  const started = performance.now();
  const session = startDev(dir);
  const urls = await urlsOf(session, slugs);
  await Promise.all([...urls.values()].map((u) => until200(u)));
  return { ms: performance.now() - started, session };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function main(): Promise<void> {
  process.stdout.write(`svc dev: node ${process.version}, ${RUNS} runs each, load ${load()}\n`);
  const work = mkdtempSync(join(tmpdir(), "svc-bench-dev-"));
  try {
    for (const count of [1, 20]) {
      const dir = join(work, `n${count}`);
      const slugs = writeProject(dir, count);
      const times: number[] = [];
      let last: Session | undefined;
      for (let i = 0; i < RUNS; i += 1) {
        const { ms, session } = await coldStart(dir, slugs);
        times.push(ms);
        if (i < RUNS - 1 || count !== 20) await stopDev(session);
        else last = session;
      }
      process.stdout.write(`  cold start to first 200, ${String(count).padStart(2)} function${count === 1 ? " " : "s"}   median ${median(times).toFixed(0).padStart(5)} ms  (${range(times)})  no fixed target: shown for comparison\n`);
      if (last !== undefined) {
        await sleep(1000);
        const pids = [...last.output().matchAll(/\] started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
        const sizes = pids.map(rssMiB);
        process.stdout.write(`  idle function process, resident memory         median ${median(sizes).toFixed(1).padStart(5)} MiB (${range(sizes)}; ${pids.length} processes)  the platform's instance: 2048 MiB\n`);
        await stopDev(last);
      }
    }
    const dir = join(work, "n1");
    const session = startDev(dir);
    const [url = ""] = (await urlsOf(session, ["f0"])).values();
    await until200(url);
    const reloads: number[] = [];
    for (let version = 2; version < 2 + Math.max(RUNS, 7); version += 1) {
      const started = performance.now();
      writeFileSync(join(dir, "functions", "f0", "index.ts"), handler("f0", version));
      await until200(url, `f0 v${version}`);
      reloads.push(performance.now() - started);
      await sleep(300);
    }
    await stopDev(session);
    const verdict = median(reloads) <= TARGET.reloadMs ? "met" : "NOT met";
    process.stdout.write(`  reload, file write to the new code's answer     median ${median(reloads).toFixed(0).padStart(5)} ms  (${range(reloads)})  target ≤ ${TARGET.reloadMs} ms — ${verdict}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`load after: ${load()}\n`);
}

await main();
