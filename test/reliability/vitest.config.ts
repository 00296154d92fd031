import { defineConfig } from "vitest/config";

/** `npm run test:reliability`: the long soak (200 applies) and nothing else. */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    env: { SVC_SOAK_APPLIES: "200" },
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
