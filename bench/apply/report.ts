/**
 * Formats the apply bench's measurements: one table row per run, then the ratios to the lower
 * bound and to the one-at-a-time run, and the targets with the measured value beside
 * each. Pure: measurements in, text out.
 */
import { scryptSync } from "node:crypto";
import type { Measurement } from "./measurement.js";


/** Milliseconds of one scrypt with the configTag parameters (N = 2^15, r = 8, p = 1), median of 3. */
export function measureScrypt(): number {
  const times = [0, 1, 2].map((i) => {
    const start = performance.now();
    scryptSync(`bench-password-${i}`, `bench-salt-${i}`, 10, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    return performance.now() - start;
  });
  return [...times].sort((a, b) => a - b)[1] ?? 0;
}

function ms(n: number): string {
  return `${n.toFixed(0)} ms`;
}

function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}×` : "n/a";
}

function find(all: readonly Measurement[], scenario: string, op: string, concurrency: number): Measurement | undefined {
  return all.find((m) => m.scenario === scenario && m.op === op && m.concurrency === concurrency);
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")).join("\n");
}

/** The report printed by `npm run bench`. */
export function formatReport(all: readonly Measurement[], scryptMs: number): string {
  const header = ["scenario", "op", "conc", "wall", "before 1st mutation", "requests", "waves", "mutations", "deploys", "lower bound", "engine/bound", "engine/sequential"];
  const rows = all.map((m) => {
    const sequential = find(all, m.scenario, m.op, 1);
    return [
      m.scenario,
      m.op,
      String(m.concurrency),
      ms(m.wallMs),
      ms(m.planPhaseMs),
      String(m.requests),
      String(m.waves),
      String(m.mutations),
      String(m.deployments),
      ms(m.lowerBoundMs),
      ratio(m.wallMs, m.lowerBoundMs),
      m.concurrency === 1 || sequential === undefined ? "" : ratio(m.wallMs, sequential.wallMs),
    ];
  });
  const lines = [table([header, ...rows]), "", "targets:"];
  const wide = find(all, "wide", "apply", 8);
  if (wide !== undefined) {
    const execution = wide.wallMs - wide.planPhaseMs;
    const path = wide.lowerBoundMs - 2 * wide.latencyMs;
    const verdict = (limit: number): string => (wide.wallMs <= limit * wide.lowerBoundMs ? "met" : "not met");
    lines.push(`  wide apply within 1.5× the lower bound: ${ratio(wide.wallMs, wide.lowerBoundMs)} (${verdict(1.5)}); within 1.2×: ${verdict(1.2)}`);
    lines.push(`    of which after the first mutation: ${ms(execution)} against a critical path of ${ms(path)} (${ratio(execution, path)})`);
    lines.push(`    and before it (reads, bundling, fingerprints): ${ms(wide.planPhaseMs)}`);
    lines.push(`    (keyed fingerprints: no scrypt; one hardened derivation would cost ${ms(scryptMs)} here and now)`);
  }
  const noopPlan = find(all, "noop", "plan", 8);
  if (noopPlan !== undefined) {
    const met = noopPlan.waves <= 3 && noopPlan.mutations === 0;
    lines.push(`  noop plan in ≤ 3 waves and 0 mutations: ${noopPlan.waves} waves, ${noopPlan.mutations} mutations (${met ? "met" : "not met"})`);
    lines.push(`  noop plan ≤ 2× the 2-wave read bound: ${ratio(noopPlan.wallMs, noopPlan.lowerBoundMs)} (${noopPlan.wallMs <= 2 * noopPlan.lowerBoundMs ? "met" : "not met"})`);
  }
  const noopApply = find(all, "noop", "apply", 8);
  if (noopApply !== undefined) {
    lines.push(`  a second apply of wide deploys 0 functions: ${noopApply.deployments} deployments, ${noopApply.mutations} mutations (${noopApply.deployments === 0 ? "met" : "not met"})`);
  }
  const failed = all.filter((m) => m.failed > 0);
  if (failed.length > 0) lines.push(`  warning: failed changes in ${failed.map((m) => `${m.scenario} ${m.op} c${m.concurrency}`).join(", ")}`);
  return lines.join("\n");
}
