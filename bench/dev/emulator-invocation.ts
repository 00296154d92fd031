/**
 * The emulator's invocation overhead (part of `npm run bench:dev`; run by hand, never by the
 * tests): the same trivial handler is served twice, by the function host alone (a direct call)
 * and as a deployed function behind the emulator's front door (its invocation_url). Autocannon
 * drives each with one connection (requests per second), then 2,000 sequential requests give each
 * one's median latency. The overhead is the difference of the medians (target ≤ 5 ms), printed
 * with both figures, their ratio and the load average.
 * Asserts nothing.
 *
 *   npm run bench:dev [-- --duration 10 --runs 3]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { startEmulator } from "../../src/emulator/index.js";
import { startFunctionProcess } from "../../src/runtime/index.js";

const TARGET_OVERHEAD_MS = 5;
const HANDLER = 'export default () => new Response("ok");\n';
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * `seconds` of autocannon over one connection: requests per second and non-2xx answers. Its
 * latency histogram counts whole milliseconds, too coarse here, so the median comes from
 * {@link medianLatency}. Spawned asynchronously: the emulator runs in this process.
 */
async function drive(url: string, seconds: number): Promise<{ rps: number; non2xx: number; errors: number }> {
  const child = spawn(process.execPath, [AUTOCANNON, "-j", "-c", "1", "-d", String(seconds), url], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`autocannon failed with ${code}`);
  const json = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number };
  return { rps: json.requests.average, non2xx: json.non2xx, errors: json.errors };
}

/** The median of `count` sequential GETs over one kept-alive connection, in ms (microsecond resolution). */
async function medianLatency(url: string, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        get(url, { agent }, (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
        }).on("error", reject);
      });
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return median(times);
}

async function main(): Promise<void> {
  const seconds = flag("duration", 10);
  const runs = flag("runs", 3);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-invocation-"));
  const entry = join(dir, "index.mjs");
  writeFileSync(entry, HANDLER);
  const emu = await startEmulator({ timings: { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 } });
  const direct = await startFunctionProcess({ entry });
  try {
    const zip = new JSZip();
    zip.file("index.mjs", HANDLER);
    const form = new FormData();
    form.append("zip", new Blob([await zip.generateAsync({ type: "uint8array" })]), "bundle.zip");
    form.append("runtime", "nodejs24");
    const fn = `${emu.apiHost}/projects/${emu.projectId}/branches/${emu.defaultBranchId}/functions/bench`;
    const headers = { authorization: `Bearer ${emu.apiKey}` };
    const deployed = await fetch(`${fn}/deployments`, { method: "POST", headers, body: form });
    if (deployed.status !== 201) throw new Error(`the deployment failed: ${deployed.status} ${await deployed.text()}`);
    await emu.settle();
    const url = ((await (await fetch(fn, { headers })).json()) as { function: { invocation_url: string } }).function.invocation_url;
    // Warm both: the emulator's process starts on its first request.
    for (const target of [url, `${direct.url}/`]) if ((await fetch(target)).status !== 200) throw new Error(`${target} did not answer 200`);
    process.stdout.write(`emulator invocation overhead: ${runs} runs of ${seconds} s each, one connection, trivial handler; load average before: ${load()}\n`);
    const directP50: number[] = [];
    const emulatorP50: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a = await drive(`${direct.url}/`, seconds);
      const b = await drive(url, seconds);
      const da = await medianLatency(`${direct.url}/`, 2000);
      const db = await medianLatency(url, 2000);
      directP50.push(da);
      emulatorP50.push(db);
      process.stdout.write(`  run ${i + 1}: direct ${a.rps.toFixed(0)} req/s (non-2xx ${a.non2xx}, errors ${a.errors}), median ${da.toFixed(3)} ms; through the emulator ${b.rps.toFixed(0)} req/s (non-2xx ${b.non2xx}, errors ${b.errors}), median ${db.toFixed(3)} ms\n`);
    }
    const d = median(directP50);
    const e = median(emulatorP50);
    const overhead = e - d;
    process.stdout.write(
      `invocation overhead (median of the runs' medians): ${overhead.toFixed(2)} ms (target ≤ ${TARGET_OVERHEAD_MS} ms: ${overhead <= TARGET_OVERHEAD_MS ? "met" : "NOT met"}); direct ${d.toFixed(2)} ms, emulator ${e.toFixed(2)} ms, ratio ${(e / Math.max(d, 0.01)).toFixed(2)}x; load average after: ${load()}\n`,
    );
  } finally {
    await direct.stop();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
