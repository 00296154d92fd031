// Preloaded into each measured CLI process (node --import): writes the process's peak RSS (kB)
// to the file named by SVC_BENCH_RSS_FILE when it exits. Plain JavaScript so it adds no loader.
import { writeFileSync } from "node:fs";

const file = process.env.SVC_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
