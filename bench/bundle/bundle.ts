/**
 * Bundling benchmark (`npm run bench:bundle`, run by hand; not part of the tests or CI).
 * Generates 40 functions from the fixtures (TypeScript with a CommonJS npm dependency, plus
 * generated modules so each build does real work; every fifth one prebuilt for `bundler:
 * "none"`), bundles them one at a time and then in parallel, and prints wall time, per-function
 * time, archive sizes and the parallel/one-at-a-time ratio next to our targets. Asserts nothing.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFunctions, DEFAULT_BUNDLE_CONCURRENCY, type BundleProgress } from "../../src/bundle/bundle-many.js";
import type { ArchiveRef } from "../../src/bundle/archive-ref.js";
import type { ResolvedFunction } from "../../src/model/desired-state.js";
import { formatBytes } from "../../src/rules/zip-entries.js";

const FUNCTION_COUNT = 40;
const MODULES_PER_FUNCTION = 6;
const TARGET_PER_FUNCTION_MS = 250;
const TARGET_SPEEDUP = 1.5;

const fixtures = fileURLToPath(new URL("../../fixtures/functions/", import.meta.url));

/** A TypeScript module with `lines` small functions, distinct per function and module. */
function generatedModule(fn: number, mod: number, lines: number): string {
  const body: string[] = [`export const moduleId = "f${fn}-m${mod}";`];
  for (let i = 0; i < lines; i++) {
    body.push(
      `export function step${i}(input: number, label: string = "s${i}"): { value: number; label: string } {`,
      `  const value = (input * ${i + 7} + ${fn * 31 + mod}) % 1000003;`,
      "  return { value, label: `${label}:${value.toString(16)}` };",
      "}",
    );
  }
  return body.join("\n");
}

function generateFunctions(root: string): ResolvedFunction[] {
  const functions: ResolvedFunction[] = [];
  for (let i = 0; i < FUNCTION_COUNT; i++) {
    const slug = `fn${i}`;
    const dir = join(root, slug);
    const prebuilt = i % 5 === 4;
    if (prebuilt) {
      cpSync(join(fixtures, "prebuilt"), dir, { recursive: true, verbatimSymlinks: true });
    } else {
      cpSync(join(fixtures, "ts-npm"), dir, { recursive: true });
      mkdirSync(join(dir, "lib"));
      const imports: string[] = [];
      for (let m = 0; m < MODULES_PER_FUNCTION; m++) {
        writeFileSync(join(dir, "lib", `m${m}.ts`), generatedModule(i, m, 150));
        imports.push(`export * as m${m} from "./lib/m${m}.js";`);
      }
      writeFileSync(join(dir, "modules.ts"), imports.join("\n"));
      writeFileSync(
        join(dir, "index.ts"),
        [
          'import * as all from "./modules.js";',
          'import { greet } from "tiny-greet";',
          "export default async function handler(): Promise<Response> {",
          "  return Response.json({ hello: greet(all.m0.moduleId), modules: Object.keys(all).length, all });",
          "}",
        ].join("\n"),
      );
    }
    functions.push({
      slug,
      name: slug,
      sourcePath: dir,
      env: {},
      runtime: "nodejs24",
      bundler: prebuilt ? "none" : "esbuild",
      sourcemap: i % 2 === 0,
      customDomains: [],
    });
  }
  return functions;
}

interface RunResult {
  wallMs: number;
  perFunctionMs: number[];
  archives: Map<string, ArchiveRef>;
}

async function run(functions: ResolvedFunction[], concurrency: number): Promise<RunResult> {
  const started = new Map<string, number>();
  const perFunctionMs: number[] = [];
  const onProgress = (event: BundleProgress): void => {
    if (event.phase === "start") started.set(event.slug, performance.now());
    else perFunctionMs.push(performance.now() - (started.get(event.slug) ?? 0));
  };
  const t0 = performance.now();
  const archives = await bundleFunctions(functions, { concurrency, onProgress });
  return { wallMs: performance.now() - t0, perFunctionMs, archives };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "svc-bench-bundle-"));
  try {
    const functions = generateFunctions(root);
    // Warm-up: loads esbuild and jszip and starts esbuild's service, which neither run should pay.
    await bundleFunctions(functions.slice(0, 2), { concurrency: 1 });

    const serial = await run(functions, 1);
    const parallel = await run(functions, DEFAULT_BUNDLE_CONCURRENCY);
    const sizes = [...parallel.archives.values()].map((a) => a.zipBytes);
    const same = [...serial.archives].every(([slug, a]) => parallel.archives.get(slug)?.zipSha256 === a.zipSha256);
    const speedup = serial.wallMs / parallel.wallMs;
    const serialPerFunction = serial.wallMs / functions.length;

    console.log(`bundle benchmark: ${functions.length} functions (${functions.filter((f) => f.bundler === "none").length} prebuilt), ${availableParallelism()} CPU(s), load average ${loadavg()[0]?.toFixed(1)} at start`);
    console.log(`  one at a time  wall ${ms(serial.wallMs)}, per function ${ms(serialPerFunction)} mean, ${ms(percentile(serial.perFunctionMs, 95))} p95 (target ≤ ${TARGET_PER_FUNCTION_MS} ms mean)`);
    console.log(`  parallel (${DEFAULT_BUNDLE_CONCURRENCY})   wall ${ms(parallel.wallMs)}, per function ${ms(parallel.wallMs / functions.length)} effective, ${ms(percentile(parallel.perFunctionMs, 50))} p50 latency`);
    console.log(`  ratio          parallel/one-at-a-time ${(parallel.wallMs / serial.wallMs).toFixed(2)} (speed-up ${speedup.toFixed(2)}×, target ≥ ${TARGET_SPEEDUP}× on 2+ CPUs)`);
    console.log(`  archive sizes  min ${formatBytes(Math.min(...sizes))}, median ${formatBytes(percentile(sizes, 50))}, max ${formatBytes(Math.max(...sizes))}, total ${formatBytes(sizes.reduce((a, b) => a + b, 0))}`);
    console.log(`  determinism    serial and parallel archives identical: ${same ? "yes" : "NO"}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
