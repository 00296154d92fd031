// Preloaded into the measured CLI process (node --import): samples process.memoryUsage() every
// 50 ms and, when the process exits, writes the largest heap in use and the largest memory of
// array buffers (where archives and request bodies live: outside the JavaScript heap, so a
// sampling heap profile does not show them) as JSON to the file named by SVC_BENCH_MEMORY_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.SVC_BENCH_MEMORY_FILE;
if (file) {
  const peak = { heapUsed: 0, arrayBuffers: 0, external: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    peak.external = Math.max(peak.external, m.external);
  };
  setInterval(sample, 50).unref();
  process.on("exit", () => {
    sample();
    writeFileSync(file, JSON.stringify({ ...peak, maxRSS: process.resourceUsage().maxRSS * 1024 }));
  });
}
