/**
 * One load measurement in a fresh process: imports the library, then calls `loadConfigFromFile`
 * once (cold: jiti and the policy's modules start uncached) and `WARM_CALLS` more times (warm).
 * Prints one JSON line ({@link LoadMeasurement}). Started by `bench/load/load.ts`.
 *
 *   tsx bench/load/load-once.ts <policy path>
 */

/** Calls after the first one. */
const WARM_CALLS = 10;

/** What one process measured, ms. */
export interface LoadMeasurement {
  importMs: number;
  coldMs: number;
  warmMs: number[];
  functions: number;
}

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write("usage: load-once.ts <policy path>\n");
  process.exit(2);
}
const importStart = performance.now();
const { loadConfigFromFile } = await import("../../src/v1.js");
const importMs = performance.now() - importStart;
const coldStart = performance.now();
const first = await loadConfigFromFile({ path });
const coldMs = performance.now() - coldStart;
const warmMs: number[] = [];
for (let i = 0; i < WARM_CALLS; i++) {
  const start = performance.now();
  await loadConfigFromFile({ path });
  warmMs.push(performance.now() - start);
}
const measurement: LoadMeasurement = { importMs, coldMs, warmMs, functions: Object.keys(first.config.functions ?? {}).length };
process.stdout.write(`${JSON.stringify(measurement)}\n`);
