/**
 * Policy load benchmark (`npm run bench:load`, run by hand; not part of the tests or CI).
 * Writes a 40-function TypeScript policy split over two files, then in `PROCESSES` fresh
 * processes measures the first `loadConfigFromFile` (cold) and ten more (warm), and prints the
 * medians and extremes. Every call evaluates the file afresh by design, so warm
 * calls show what a long-running process (the Vite plugin, a watch loop) pays per reload.
 * Prints figures; asserts nothing.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LoadMeasurement } from "./load-once.js";
import { LOAD_FUNCTION_COUNT, writeLoadPolicy } from "./policy-generator.js";

const PROCESSES = 5;
const run = promisify(execFile);
const LOAD_ONCE = fileURLToPath(new URL("./load-once.ts", import.meta.url));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function fmt(n: number): string {
  return `${n.toFixed(1)} ms`;
}

const root = mkdtempSync(join(tmpdir(), "svc-bench-load-"));
try {
  const policy = writeLoadPolicy(root);
  process.stdout.write(`svc-config load bench: ${LOAD_FUNCTION_COUNT} functions, ${PROCESSES} fresh processes, node ${process.version}, ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  const runs: LoadMeasurement[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const { stdout } = await run(process.execPath, ["--import", "tsx", LOAD_ONCE, policy]);
    runs.push(JSON.parse(stdout.trim()) as LoadMeasurement);
  }
  const cold = runs.map((r) => r.coldMs);
  const warm = runs.flatMap((r) => r.warmMs);
  const imports = runs.map((r) => r.importMs);
  process.stdout.write(
    [
      `  library import:           median ${fmt(median(imports))}  (min ${fmt(Math.min(...imports))}, max ${fmt(Math.max(...imports))})`,
      `  loadConfigFromFile cold:  median ${fmt(median(cold))}  (min ${fmt(Math.min(...cold))}, max ${fmt(Math.max(...cold))})`,
      `  loadConfigFromFile warm:  median ${fmt(median(warm))}  (min ${fmt(Math.min(...warm))}, max ${fmt(Math.max(...warm))}, ${warm.length} calls)`,
      `  cold/warm: ${(median(cold) / median(warm)).toFixed(1)}×; functions loaded: ${runs[0]?.functions ?? 0}`,
      `load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`,
      "",
    ].join("\n"),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
