/**
 * CPU per mutation as a branch grows, run by hand with `npm run bench:emulator:mutations`: an
 * in-process emulator (no latency, no build or operation waits) and the platform client deploy
 * N functions and create N/2 schedule triggers on one branch, then rename functions one at a
 * time, so every rename is answered after its own pass of the running functions' resync.
 * Prints the median and fastest CPU per rename (client and emulator together) over 40 rounds of
 * 20 renames, for each size. Asserts nothing.
 *
 *   npm run bench:emulator:mutations [-- --sizes 20,1000]
 */
import { loadavg } from "node:os";
import JSZip from "jszip";
import { startEmulator } from "../../src/emulator/index.js";
import { createPlatformApi } from "../../src/v1.js";

const ROUNDS = 40;
const RENAMES = 20;
const NO_WAITS = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

const i = process.argv.indexOf("--sizes");
const sizes = (i >= 0 ? (process.argv[i + 1] ?? "") : "20,1000").split(",").map(Number).filter((n) => n >= RENAMES);

const zip = new JSZip();
zip.file("index.mjs", "export default { fetch() { return new Response('ok'); } };\n");
const archive = await zip.generateAsync({ type: "uint8array" });

/** Runs `make(k)` for k in [0, count), 50 at a time. */
async function inBatches(count: number, make: (k: number) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < count; from += 50) await Promise.all(Array.from({ length: Math.min(50, count - from) }, (_, k) => make(from + k)));
}

process.stdout.write(`emulator CPU per mutation; node ${process.version}; load ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
for (const n of sizes) {
  const emu = await startEmulator({ timings: NO_WAITS, log: "off" });
  try {
    const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const ref = { projectId: emu.projectId, branchId: emu.defaultBranchId };
    await inBatches(n, (k) => api.createDeployment({ ...ref, slug: `f${k}`, zip: archive, runtime: "nodejs24", environment: {} }));
    await emu.settle();
    await inBatches(n / 2, (k) => api.createTrigger({ ...ref, trigger: { type: "schedule", schedule: { cron: "0 3 * * *" }, function_slug: `f${k}`, name: `t${k}` } }));
    const perRename: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = process.cpuUsage();
      for (let k = 0; k < RENAMES; k++) await api.updateFunction({ ...ref, slug: `f${k}`, name: `n${round}-${k}` });
      const used = process.cpuUsage(before);
      perRename.push((used.user + used.system) / 1000 / RENAMES);
    }
    perRename.sort((a, b) => a - b);
    process.stdout.write(`  ${String(n).padStart(5)} functions, ${n / 2} schedule triggers: CPU per rename median ${(perRename[ROUNDS / 2] ?? 0).toFixed(3)} ms, fastest ${(perRename[0] ?? 0).toFixed(3)} ms\n`);
  } finally {
    await emu.close();
  }
}
process.stdout.write(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
