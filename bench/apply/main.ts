/**
 * Plan and apply benchmark (`npm run bench`, run by hand; not part of the tests or CI).
 * For each scenario (`small`, `wide`, `noop`) it measures plan and apply with the default
 * concurrency (8) and with `concurrency: 1`, each in a fresh process against an in-process
 * emulator with injected latency, operation and build durations, and prints wall time, request
 * count, sequential request waves, mutations and deployments next to a computed lower bound,
 * then the ratios and targets of issue 10. It prints figures; it asserts nothing.
 *
 *   npm run bench [-- --latency 40] [--only wide]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formatReport } from "./report.js";
import type { Measurement } from "./run-one.js";
import { SCENARIOS, type ScenarioName } from "./scenarios.js";

const run = promisify(execFile);
const RUN_ONE = fileURLToPath(new URL("./run-one.ts", import.meta.url));

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function child(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", RUN_ONE, ...args], { maxBuffer: 1 << 20 });
    return stdout;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(`bench run "${args.join(" ")}" failed:\n${stderr.trim()}`);
  }
}

const latencyMs = Number(argValue("--latency") ?? "40");
const only = argValue("--only");
const scenarios = SCENARIOS.filter((s) => only === undefined || s === only);
if (!Number.isInteger(latencyMs) || latencyMs < 0 || scenarios.length === 0) {
  process.stderr.write(`usage: npm run bench [-- --latency <ms>] [--only ${SCENARIOS.join("|")}]\n`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "svc-bench-"));
const stateFile = join(work, "wide-converged.json");
const measurements: Measurement[] = [];
try {
  process.stdout.write(`svc-config apply bench: latency ${latencyMs} ms, node ${process.version}, ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  if (scenarios.includes("noop")) await child(["converge", stateFile]);
  for (const scenario of scenarios as ScenarioName[]) {
    for (const op of ["plan", "apply"] as const) {
      for (const concurrency of [8, 1]) {
        const out = await child([scenario, op, String(concurrency), String(latencyMs), ...(scenario === "noop" ? [stateFile] : [])]);
        const m = JSON.parse(out.trim()) as Measurement;
        measurements.push(m);
        process.stdout.write(`  measured ${scenario} ${op} concurrency ${concurrency}: ${m.wallMs.toFixed(0)} ms\n`);
      }
    }
  }
  process.stdout.write(`\n${formatReport(measurements)}\n`);
  process.stdout.write(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
