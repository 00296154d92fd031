/**
 * Emulator throughput, run by hand with `npm run bench:emulator`: starts
 * `svc emulator --port 0` pinned to CPU 0, drives it with autocannon pinned to CPU 1, takes the
 * best of 3 runs of `GET /projects/{id}` and prints it next to the 2,000 requests/s target with
 * average and p99 latency and the count of non-2xx responses. `GET …/branches` and
 * `POST …/branches` are printed for information. Asserts nothing.
 *
 * Flags: `--duration S` (default 20), `--runs N` (default 3), `--connections N` (default 16).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const TARGET_RPS = 2000;
const require = createRequire(import.meta.url);
const AUTOCANNON = require.resolve("autocannon/autocannon.js");
const RUN_CLI = fileURLToPath(new URL("../../fixtures/emulator/run-cli.ts", import.meta.url));

interface Result {
  rps: number;
  latencyAvgMs: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
function pinned(cpu: number, command: string, args: string[]): [string, string[]] {
  return hasTaskset ? ["taskset", ["-c", String(cpu), command, ...args]] : [command, args];
}

async function startEmulator(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const [cmd, args] = pinned(0, process.execPath, ["--import", "tsx", RUN_CLI, "--port", "0", "--timings", "0"]);
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  while (out.split("\n").filter((l) => l.startsWith("SVC_")).length < 5) {
    if (child.exitCode !== null) throw new Error(`the emulator exited with ${child.exitCode} before listening`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const env = Object.fromEntries(out.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
  return { child, env };
}

function autocannon(url: string, key: string, options: { method?: string; body?: string; duration: number; connections: number }): Result {
  const args = [AUTOCANNON, "-j", "-c", String(options.connections), "-d", String(options.duration), "-H", `authorization=Bearer ${key}`];
  if (options.method !== undefined) args.push("-m", options.method);
  if (options.body !== undefined) args.push("-H", "content-type=application/json", "-b", options.body);
  args.push(url);
  const [cmd, full] = pinned(1, process.execPath, args);
  const run = spawnSync(cmd, full, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`autocannon failed: ${run.stderr}`);
  const json = JSON.parse(run.stdout) as { requests: { average: number }; latency: { average: number; p99: number }; non2xx: number; errors: number };
  return { rps: json.requests.average, latencyAvgMs: json.latency.average, latencyP99Ms: json.latency.p99, non2xx: json.non2xx, errors: json.errors };
}

function line(label: string, r: Result, target?: number): string {
  const goal = target !== undefined ? ` (target ≥ ${target.toLocaleString("en-US")} req/s: ${r.rps >= target && r.non2xx === 0 ? "met" : "NOT met"})` : " (information)";
  return `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s${goal}; avg ${r.latencyAvgMs.toFixed(2)} ms, p99 ${r.latencyP99Ms.toFixed(2)} ms, non-2xx ${r.non2xx}, errors ${r.errors}`;
}

async function main(): Promise<void> {
  const duration = flag("duration", 20);
  const runs = flag("runs", 3);
  const connections = flag("connections", 16);
  const { child, env } = await startEmulator();
  try {
    const api = env["SVC_API_HOST"] ?? "";
    const key = env["SVC_API_KEY"] ?? "";
    const project = env["SVC_PROJECT_ID"] ?? "";
    process.stdout.write(`emulator ${api}${hasTaskset ? " (emulator on CPU 0, autocannon on CPU 1)" : " (taskset not found: processes not pinned)"}; ${runs} runs of ${duration} s, ${connections} connections\n`);
    const results: Result[] = [];
    for (let i = 0; i < runs; i++) {
      const r = autocannon(`${api}/projects/${project}`, key, { duration, connections });
      results.push(r);
      process.stdout.write(`  run ${i + 1}: ${r.rps.toFixed(0)} req/s, non-2xx ${r.non2xx}\n`);
    }
    const best = results.reduce((a, b) => (b.rps > a.rps ? b : a));
    process.stdout.write(`${line("GET /projects/{id} (best of runs)", best, TARGET_RPS)}\n`);
    process.stdout.write(`${line("GET /projects/{id}/branches", autocannon(`${api}/projects/${project}/branches`, key, { duration: Math.min(duration, 10), connections }))}\n`);
    process.stdout.write(`${line("POST /projects/{id}/branches", autocannon(`${api}/projects/${project}/branches`, key, { method: "POST", body: "{}", duration: Math.min(duration, 2), connections: 4 }))}\n`);
  } finally {
    child.kill("SIGTERM");
  }
}

await main();
