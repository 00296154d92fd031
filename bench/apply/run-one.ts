/**
 * One bench measurement in a fresh process (so per-process caches such as fingerprint memos
 * start cold, as they do for a user running `svc plan` or `svc apply`). A plan of a one-function
 * warm-up policy runs first and is not measured, so loading and compiling the library's modules
 * on first use is not counted (its fingerprint is not one the scenarios reuse). Started by
 * `bench/apply/main.ts`; prints one JSON line ({@link Measurement}) on stdout.
 *
 *   tsx bench/apply/run-one.ts <small|wide|noop> <plan|apply> <concurrency> <latencyMs> [stateFile]
 *   tsx bench/apply/run-one.ts converge <stateFile>     (writes the converged `wide` world)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { startEmulator, type EmulatorOptions, type StateDocument } from "../../src/emulator/index.js";
import { apply, createPlatformApi, plan, type PushResult } from "../../src/v1.js";
import { lowerBounds, type PlatformCosts } from "./lower-bound.js";
import { BENCH_API_KEY, BENCH_FINGERPRINT_KEY, BENCH_TIMINGS, type Measurement } from "./measurement.js";
import { createServerRecorder, deploymentCount, mutationCount, sequentialWaves } from "./request-recorder.js";
import { BENCH_BASE_DIR, scenarioPolicy, warmUpPolicy, widePolicy, type ScenarioName } from "./scenarios.js";

function emulatorOptions(latencyMs: number, seed?: StateDocument): EmulatorOptions {
  return { latencyMs, timings: BENCH_TIMINGS, idSeed: 1, apiKey: BENCH_API_KEY, ...(seed !== undefined ? { seed } : {}) };
}

/** The bundle cache every run shares (`SVC_BENCH_CACHE_DIR`, set by main.ts): warm, as the CLI's default cache is after a first run. */
const cacheOption = process.env.SVC_BENCH_CACHE_DIR === undefined ? {} : { cacheDir: process.env.SVC_BENCH_CACHE_DIR };

async function converge(stateFile: string): Promise<void> {
  const emu = await startEmulator(emulatorOptions(0));
  try {
    const result = await apply(widePolicy(), { apiKey: emu.apiKey, apiHost: emu.apiHost, projectId: emu.projectId, branchId: emu.defaultBranchId, baseDir: BENCH_BASE_DIR, updateExisting: true, polling: { initialMs: 20, maxMs: 50 }, fingerprintKey: BENCH_FINGERPRINT_KEY, ...cacheOption });
    if (result.failed.length > 0) throw new Error(`converging wide failed: ${result.failed.map((f) => `${f.change.id}: ${f.error.message}`).join("; ")}`);
    await emu.settle();
    writeFileSync(stateFile, JSON.stringify(emu.state.snapshot({ secrets: true })));
  } finally {
    await emu.close();
  }
}

async function measure(scenario: ScenarioName, op: "plan" | "apply", concurrency: number, latencyMs: number, stateFile?: string): Promise<Measurement> {
  const seed = stateFile !== undefined ? (JSON.parse(readFileSync(stateFile, "utf8")) as StateDocument) : undefined;
  const recorder = createServerRecorder();
  const emu = await startEmulator({ ...emulatorOptions(latencyMs, seed), log: recorder.log });
  try {
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const options = { api, projectId: emu.projectId, branchId: emu.defaultBranchId, baseDir: BENCH_BASE_DIR, concurrency, fingerprintKey: BENCH_FINGERPRINT_KEY, ...cacheOption };
    await plan(warmUpPolicy(), { ...options, concurrency: 8 });
    recorder.clear();
    const config = scenarioPolicy(scenario);
    const started = performance.now();
    const result: PushResult = op === "plan" ? await plan(config, options) : await apply(config, { ...options, updateExisting: true });
    const wallMs = performance.now() - started;
    const requests = recorder.requests;
    const firstMutation = requests.filter((r) => r.method !== "GET").reduce((min, r) => Math.min(min, r.start), Number.POSITIVE_INFINITY);
    const origin = requests.reduce((min, r) => Math.min(min, r.start), Number.POSITIVE_INFINITY);
    const costs: PlatformCosts = { latencyMs, operationMs: BENCH_TIMINGS.opSchedulingMs + BENCH_TIMINGS.opRunMs, buildMs: BENCH_TIMINGS.deployPendingMs + BENCH_TIMINGS.deployBuildMs };
    const bounds = lowerBounds(result.changes, costs);
    return {
      scenario,
      op,
      concurrency,
      latencyMs,
      wallMs,
      planPhaseMs: Number.isFinite(firstMutation) ? firstMutation - origin : wallMs,
      requests: requests.length,
      waves: sequentialWaves(requests),
      mutations: mutationCount(requests),
      deployments: deploymentCount(requests),
      changes: result.changes.length,
      failed: result.failed.length,
      lowerBoundMs: op === "plan" ? bounds.planMs : bounds.applyMs,
    };
  } finally {
    await emu.close();
  }
}

const [first, second, third, fourth, fifth] = process.argv.slice(2);
if (first === "converge" && second !== undefined) {
  await converge(second);
} else if ((first === "small" || first === "wide" || first === "noop") && (second === "plan" || second === "apply")) {
  const m = await measure(first, second, Number(third ?? "8"), Number(fourth ?? "40"), fifth);
  process.stdout.write(`${JSON.stringify(m)}\n`);
} else {
  process.stderr.write("usage: run-one.ts <small|wide|noop> <plan|apply> <concurrency> <latencyMs> [stateFile] | run-one.ts converge <stateFile>\n");
  process.exitCode = 2;
}
