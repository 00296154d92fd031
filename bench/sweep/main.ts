/**
 * Size sweep (`npm run bench:sweep`, part of `npm run bench`; run by hand, never by the tests).
 * For each shape (`mix`, `functions`) and size N it writes a generated policy, starts the
 * emulator in its own process (latency 40 ms, operations 300 ms, builds 500 ms) and runs the
 * built CLI in a fresh process per phase, as a user does: `validate --no-bundle`, the first
 * `apply` (keyed), a no-op `plan` (keyed), `validate`, and for N ≤ 1000 the keyless pair (an
 * `apply` that re-keys every function env-only, then a no-op keyless `plan`). Each phase prints
 * wall time, requests, sequential waves, the in-flight peak (from the emulator's request log),
 * peak RSS, the CPU the CLI and the emulator spent, and the load average, then the targets as
 * ratios. It asserts nothing.
 *
 *   npm run build && npm run bench:sweep [-- --sizes 10,200,1000 --shapes mix]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sequentialWaves } from "../apply/request-recorder.js";
import { type EmulatorProcess, type LoggedRequest, SVC_BIN, SWEEP_COSTS, startEmulatorProcess } from "./emulator-process.js";
import { type SweepShape, sweepCounts, writeSweepPolicy } from "./generate-policy.js";

const REPORT_USAGE = fileURLToPath(new URL("./report-usage.mjs", import.meta.url));
const FINGERPRINT_KEY = "5eed".repeat(16);

/** One measured CLI run. */
interface Phase {
  shape: SweepShape;
  n: number;
  phase: string;
  ms: number;
  requests: number;
  waves: number;
  peak: number;
  rssMb: number;
  /** CPU the CLI process spent (user + system; esbuild's own process not included), ms. */
  cpuMs: number;
  /** CPU the emulator spent meanwhile, ms; undefined without an emulator or where it cannot be read. */
  emulatorCpuMs: number | undefined;
  load: number;
  exitCode: number;
}

function argList(name: string, fallback: string): string[] {
  const i = process.argv.indexOf(name);
  return (i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback).split(",").filter((s) => s !== "");
}

function inFlightPeak(requests: readonly LoggedRequest[]): number {
  const edges = requests.flatMap((r) => [[r.start, 1], [r.end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

async function runCli(emu: EmulatorProcess | undefined, args: string[], extraEnv: Record<string, string>, work: string): Promise<Omit<Phase, "shape" | "n" | "phase">> {
  const usageFile = join(work, "usage");
  rmSync(usageFile, { force: true });
  const from = emu?.requests.length ?? 0;
  const load = loadavg()[0] ?? 0;
  const emulatorCpuBefore = emu?.cpuMs();
  const started = performance.now();
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ["--import", REPORT_USAGE, SVC_BIN, ...args], {
      env: { ...process.env, ...(emu?.env ?? {}), ...extraEnv, SVC_BENCH_USAGE_FILE: usageFile, CI: "1", NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0 && code !== 2) process.stderr.write(`  svc ${args.join(" ")} exited ${String(code)}:\n${stderr.slice(-2000)}\n`);
      resolve(code ?? 1);
    });
  });
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 200)); // the emulator's last log lines
  const requests = (emu?.requests ?? []).slice(from);
  const emulatorCpuAfter = emu?.cpuMs();
  const [rssKb = 0, cpuMicros = 0] = readFileSync(usageFile, "utf8").split(" ").map(Number);
  const emulatorCpuMs = emulatorCpuBefore === undefined || emulatorCpuAfter === undefined ? undefined : emulatorCpuAfter - emulatorCpuBefore;
  return { ms, requests: requests.length, waves: requests.length === 0 ? 0 : sequentialWaves(requests.map((r) => ({ ...r, status: r.status === "reset" ? 0 : r.status }))), peak: inFlightPeak(requests), rssMb: rssKb / 1024, cpuMs: cpuMicros / 1000, emulatorCpuMs, load, exitCode };
}

async function sweepOne(shape: SweepShape, n: number, phases: Phase[]): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), `svc-sweep-${shape}-${n}-`));
  const policy = writeSweepPolicy(join(work, "policy"), shape, n);
  const emu = await startEmulatorProcess();
  const record = async (phase: string, args: string[], env: Record<string, string> = {}, withEmulator = true): Promise<void> => {
    const m = await runCli(withEmulator ? emu : undefined, [...args, "--config", policy], env, work);
    const row = { shape, n, phase, ...m };
    phases.push(row);
    process.stdout.write(`  ${shape} N=${n} ${phase.padEnd(24)} ${(m.ms / 1000).toFixed(2).padStart(7)} s  ${String(m.requests).padStart(6)} req  ${String(m.waves).padStart(5)} waves  peak ${String(m.peak).padStart(3)}  ${m.rssMb.toFixed(0).padStart(4)} MB  cpu ${(m.cpuMs / 1000).toFixed(2)} s${m.emulatorCpuMs === undefined ? "" : ` + emulator ${(m.emulatorCpuMs / 1000).toFixed(2)} s`}  load ${m.load.toFixed(2)}${m.exitCode === 0 || m.exitCode === 2 ? "" : `  EXIT ${m.exitCode}`}\n`);
  };
  const keyed = { SVC_FINGERPRINT_KEY: FINGERPRINT_KEY };
  try {
    await record("validate --no-bundle", ["config", "validate", "--no-bundle"], {}, false);
    await record("first apply (keyed)", ["config", "apply", "--yes", "--quiet"], keyed);
    await record("no-op plan (keyed)", ["config", "plan", "--quiet"], keyed);
    await record("validate (bundles)", ["config", "validate"], {}, false);
    if (n <= 1000) {
      await record("re-key apply (keyless)", ["config", "apply", "--yes", "--quiet"]);
      await record("no-op plan (keyless)", ["config", "plan", "--quiet"]);
    }
  } finally {
    await emu.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function find(phases: readonly Phase[], shape: SweepShape, n: number, phase: string): Phase | undefined {
  return phases.find((p) => p.shape === shape && p.n === n && p.phase === phase);
}

/** Least time a client with unlimited concurrency needs for a first apply: 2 read waves, one deployment wave, the build, a confirming poll, the dependent wave. */
function unlimitedApplyMs(): number {
  const L = SWEEP_COSTS.latencyMs;
  return 2 * L + L + SWEEP_COSTS.buildMs + L + L;
}

/** Peak RSS of any phase at N = 5000, MB (500 until the first apply stopped deflating every archive at once). */
const RSS_TARGET_MB = 400;

function targets(phases: readonly Phase[]): string[] {
  const out: string[] = [];
  const fmt = (v: number | undefined, unit = "s"): string => (v === undefined ? "n/a" : unit === "s" ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(2)}×`);
  const verdict = (ok: boolean | undefined): string => (ok === undefined ? "not measured" : ok ? "met" : "NOT met");
  const noop1000 = find(phases, "mix", 1000, "no-op plan (keyed)");
  const noop10 = find(phases, "mix", 10, "no-op plan (keyed)");
  if (noop1000 !== undefined) {
    out.push(`mix N=1000 no-op plan (fresh process, keyed) ≤ 2 s: ${fmt(noop1000.ms)} (load ${noop1000.load.toFixed(2)}) — ${verdict(noop1000.ms <= 2000)}`);
    if (noop10 !== undefined) {
      const bound = noop10.ms + Math.max(0, noop1000.requests - noop10.requests) * SWEEP_COSTS.latencyMs;
      out.push(`mix N=1000 no-op plan ≤ 1.2× (N=10 plan + extra list pages × latency = ${fmt(bound)}): ${fmt(noop1000.ms / bound, "x")} — ${verdict(noop1000.ms / bound <= 1.2)}`);
    }
  }
  const noop200 = find(phases, "mix", 200, "no-op plan (keyed)");
  if (noop200 !== undefined) out.push(`mix N=200 no-op plan from process start (bundle cache warm after the apply) ≤ 0.7 s: ${fmt(noop200.ms)} — ${verdict(noop200.ms <= 700)}`);
  const apply1000 = find(phases, "mix", 1000, "first apply (keyed)");
  if (apply1000 !== undefined) {
    const r = apply1000.ms / unlimitedApplyMs();
    out.push(`mix N=1000 first apply ≤ 3× unlimited-concurrency client (${fmt(unlimitedApplyMs())}): ${fmt(apply1000.ms)} = ${fmt(r, "x")} — ${verdict(r <= 3)}`);
  }
  const keyless1000 = find(phases, "mix", 1000, "no-op plan (keyless)");
  if (keyless1000 !== undefined && noop1000 !== undefined) {
    const r = keyless1000.ms / noop1000.ms;
    out.push(`mix N=1000 keyless no-op plan ≤ 1.5× keyed: ${fmt(keyless1000.ms)} / ${fmt(noop1000.ms)} = ${fmt(r, "x")} — ${verdict(r <= 1.5)}`);
  }
  for (const shape of ["mix", "functions"] as const) {
    const v = find(phases, shape, 5000, "validate --no-bundle");
    const vb = find(phases, shape, 5000, "validate (bundles)");
    const p = find(phases, shape, 5000, "no-op plan (keyed)");
    if (v !== undefined) out.push(`${shape} N=5000 validate --no-bundle ≤ 2 s: ${fmt(v.ms)} — ${verdict(v.ms <= 2000)}`);
    if (vb !== undefined) out.push(`${shape} N=5000 validate ≤ 10 s (bundle cache warm after the apply): ${fmt(vb.ms)} — ${verdict(vb.ms <= 10_000)}`);
    if (p !== undefined) out.push(`${shape} N=5000 no-op plan ≤ 10 s (bundle cache warm after the apply): ${fmt(p.ms)} — ${verdict(p.ms <= 10_000)}`);
    const rss = phases.filter((x) => x.shape === shape && x.n === 5000).reduce((m, x) => Math.max(m, x.rssMb), 0);
    if (rss > 0) out.push(`${shape} N=5000 peak RSS ≤ ${RSS_TARGET_MB} MB: ${rss.toFixed(0)} MB — ${verdict(rss <= RSS_TARGET_MB)}`);
    for (const phase of ["validate --no-bundle", "first apply (keyed)", "no-op plan (keyed)", "validate (bundles)"]) {
      const a = find(phases, shape, 1000, phase);
      const b = find(phases, shape, 5000, phase);
      if (a !== undefined && b !== undefined) out.push(`${shape} growth 1000→5000, ${phase} ≤ 6×: ${fmt(b.ms / a.ms, "x")} — ${verdict(b.ms / a.ms <= 6)}`);
    }
  }
  return out;
}

const sizes = argList("--sizes", "10,200,1000,5000").map(Number);
const shapes = argList("--shapes", "mix,functions") as SweepShape[];
const phases: Phase[] = [];
process.stdout.write(`svc-config size sweep: node ${process.version}, ${availableParallelism()} cores, latency ${SWEEP_COSTS.latencyMs} ms, operations ${SWEEP_COSTS.operationMs} ms, builds ${SWEEP_COSTS.buildMs} ms, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
for (const shape of shapes) {
  for (const n of sizes) {
    const c = sweepCounts(shape, n);
    process.stdout.write(`${shape} N=${n}: ${c.functions} functions, ${c.buckets} buckets, ${c.triggers} schedule triggers, ${c.domains} custom domains\n`);
    await sweepOne(shape, n, phases);
  }
}
process.stdout.write(`\nTargets (each ratio measured in this run; the machine is shared, see the load averages):\n${targets(phases).map((t) => `  ${t}`).join("\n")}\n`);
process.stdout.write(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
