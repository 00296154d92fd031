import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A guard against hangs, not a speed check: with files running side by side on a loaded
    // machine a multi-step CLI test (several spawns of the bin) has taken just over 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Each run's temporary files in one directory, removed at the end (test/temp-root.ts).
    globalSetup: ["test/temp-root.ts"],
    // Most e2e time is spent waiting on child processes and the emulator's timers, so files run
    // half again as many at once as there are cores (vitest's default is cores - 1: one on 2 cores).
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
  },
});
