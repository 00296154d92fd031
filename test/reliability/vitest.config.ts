import { defineConfig } from "vitest/config";

/** `npm run test:reliability`: the long soak (200 applies) and the long invariant property run (150 cases). */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    env: { SVC_SOAK_APPLIES: "200", SVC_INVARIANT_RUNS: "150" },
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
