// Preloaded into each measured CLI process (node --import): writes the process's peak RSS (kB)
// and the CPU it spent (user + system, µs; its own threads, not the esbuild process it starts) to
// the file named by SVC_BENCH_USAGE_FILE when it exits. Plain JavaScript so it adds no loader.
import { writeFileSync } from "node:fs";

const file = process.env.SVC_BENCH_USAGE_FILE;
if (file) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}`);
  });
}
