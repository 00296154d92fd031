/**
 * Cold start (`npm run bench:cold`, part of `npm run bench`; run by hand, never by the tests):
 * what every `svc` command pays before its first request, measured in fresh Node processes on the
 * built package (`dist/`, as installed): importing `svc-config/v1`, and loading a generated
 * 1,000-resource `mix` policy with `loadConfigFromFile`, and `svc --version` as a whole process
 * (from spawn to exit, so Node's own start is in it). Prints the median and the range of
 * `--runs` processes (default 7) next to each budget, with the load average. Asserts nothing.
 *
 *   npm run build && npm run bench:cold [-- --runs 11]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSweepPolicy } from "../sweep/generate-policy.js";

const ONCE = fileURLToPath(new URL("./once.mjs", import.meta.url));
const DIST_V1 = new URL("../../dist/v1.js", import.meta.url).href;
const BIN = fileURLToPath(new URL("../../bin/svc.js", import.meta.url));
/** The cold-start budgets on a quiet 2-core machine, ms: the import's is the target of this round (150 before). */
const BUDGET = { importMs: 120, loadMs: 150 } as const;

interface Once {
  importMs: number;
  loadMs: number | null;
  sinceStartMs: number;
}

function runOnce(policy?: string): Once {
  const out = execFileSync(process.execPath, [ONCE, DIST_V1, ...(policy === undefined ? [] : [policy])], { encoding: "utf8" });
  return JSON.parse(out) as Once;
}

/** Milliseconds from spawning `svc --version` to its exit. */
function versionOnce(): number {
  const start = performance.now();
  execFileSync(process.execPath, [BIN, "--version"], { encoding: "utf8" });
  return performance.now() - start;
}

/** Milliseconds from spawning `node -e 0` to its exit: what Node itself costs. */
function bareNodeOnce(): number {
  const start = performance.now();
  execFileSync(process.execPath, ["-e", "0"], { encoding: "utf8" });
  return performance.now() - start;
}

function summary(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

function line(label: string, values: number[], budget: number): string {
  const s = summary(values);
  const verdict = s.median <= budget ? "met" : "NOT met";
  return `  ${label.padEnd(44)} median ${s.median.toFixed(0).padStart(5)} ms  (${s.min.toFixed(0)}–${s.max.toFixed(0)})  budget ${budget} ms — ${verdict}`;
}

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 7;
const work = mkdtempSync(join(tmpdir(), "svc-cold-start-"));
try {
  const policy = writeSweepPolicy(work, "mix", 1000);
  process.stdout.write(`svc-config cold start: node ${process.version}, ${runs} fresh processes each, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  runOnce(policy); // the first process after a build also pays the disk cache: not counted
  const imports = Array.from({ length: runs }, () => runOnce());
  const loads = Array.from({ length: runs }, () => runOnce(policy));
  process.stdout.write(`${line("import svc-config/v1", imports.map((m) => m.importMs), BUDGET.importMs)}\n`);
  process.stdout.write(`${line("evaluate a 1,000-resource svc.ts (mix)", loads.map((m) => m.loadMs ?? Number.NaN), BUDGET.loadMs)}\n`);
  process.stdout.write(`  (process start to policy loaded: median ${summary(loads.map((m) => m.sinceStartMs)).median.toFixed(0)} ms)\n`);
  const versions: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    versions.push(versionOnce());
    bare.push(bareNodeOnce());
  }
  const v = summary(versions);
  const b = summary(bare);
  process.stdout.write(`  svc --version, spawn to exit                 median ${v.median.toFixed(0).padStart(5)} ms  (${v.min.toFixed(0)}–${v.max.toFixed(0)}); node -e 0 alone ${b.median.toFixed(0)} ms, so svc adds ${(v.median - b.median).toFixed(0)} ms\n`);
  process.stdout.write(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
