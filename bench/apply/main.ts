/**
 * Plan and apply benchmark (`npm run bench`, run by hand; not part of the tests or CI).
 * For each scenario (`small`, `wide`, `noop`) it measures plan and apply with the default
 * concurrency (8) and with `concurrency: 1`, each in a fresh process against an in-process
 * emulator with injected latency, operation and build durations, and prints wall time, request
 * count, sequential request waves, mutations and deployments next to a computed lower bound,
 * then the ratios and targets of issue 10, and what one configTag derivation (scrypt) costs on
 * this machine right now. Every run shares one bundle cache, warmed first (as the CLI's default
 * cache is after a first run). With `--repeat N` each cell keeps the fastest of N runs, to absorb
 * noise from other work on the machine. It prints figures; it asserts nothing.
 *
 *   npm run bench [-- --latency 40] [--only wide] [--repeat 3]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formatReport, measureScrypt } from "./report.js";
import type { Measurement } from "./measurement.js";
import { SCENARIOS, type ScenarioName } from "./scenarios.js";

const run = promisify(execFile);
const RUN_ONE = fileURLToPath(new URL("./run-one.ts", import.meta.url));

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function child(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", RUN_ONE, ...args], { maxBuffer: 1 << 20, env: { ...process.env, SVC_BENCH_CACHE_DIR: cacheDir } });
    return stdout;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(`bench run "${args.join(" ")}" failed:\n${stderr.trim()}`);
  }
}

const latencyMs = Number(argValue("--latency") ?? "40");
const only = argValue("--only");
const repeat = Number(argValue("--repeat") ?? "1");
const scenarios = SCENARIOS.filter((s) => only === undefined || s === only);
if (!Number.isInteger(latencyMs) || latencyMs < 0 || !Number.isInteger(repeat) || repeat < 1 || scenarios.length === 0) {
  process.stderr.write(`usage: npm run bench [-- --latency <ms>] [--only ${SCENARIOS.join("|")}] [--repeat <n>]\n`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "svc-bench-"));
const stateFile = join(work, "wide-converged.json");
const cacheDir = join(work, "bundle-cache");
const measurements: Measurement[] = [];
try {
  process.stdout.write(`svc-config apply bench: latency ${latencyMs} ms, best of ${repeat}, node ${process.version}, ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  // Converging wide also warms the bundle cache every measured run shares, as a user's second run finds it.
  await child(["converge", stateFile]);
  for (const scenario of scenarios as ScenarioName[]) {
    for (const op of ["plan", "apply"] as const) {
      for (const concurrency of [8, 1]) {
        const runs: Measurement[] = [];
        for (let i = 0; i < repeat; i++) {
          const out = await child([scenario, op, String(concurrency), String(latencyMs), ...(scenario === "noop" ? [stateFile] : [])]);
          runs.push(JSON.parse(out.trim()) as Measurement);
        }
        const best = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
        measurements.push(best);
        process.stdout.write(`  measured ${scenario} ${op} concurrency ${concurrency}: ${runs.map((m) => `${m.wallMs.toFixed(0)} ms`).join(", ")}\n`);
      }
    }
  }
  process.stdout.write(`\n${formatReport(measurements, measureScrypt())}\n`);
  process.stdout.write(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
