import { describe, expect, it } from "vitest";
import type { ApiFunction } from "../../../src/api/platform-api.js";
import { createBuildWatcher } from "../../../src/apply/build-watcher.js";

/** A function whose deployment `id` reads `status`. */
const fnWith = (slug: string, id: number, status: string): ApiFunction =>
  ({ slug, name: slug, current_deployment: { id, status } }) as unknown as ApiFunction;

/** A watcher on a fake clock: `sleep` advances it; each list read answers from `statusAt(n)` (n = reads so far). */
function watcher(statusAt: (read: number) => string) {
  let clock = 0;
  let reads = 0;
  const pauses: number[] = [];
  const builds = createBuildWatcher({
    listFunctions: async () => [fnWith("hello", 1, statusAt(++reads))],
    sleep: async (ms) => {
      pauses.push(ms);
      clock += ms;
    },
    now: () => clock,
    timing: { deploymentMs: 60_000, pollInitialMs: 100, pollMaxMs: 1_000 },
  });
  return { builds, pauses };
}

describe("the build watcher", () => {
  it("pauses 100 ms between ticks, then a fifth of the time the build has been waited for, up to 1 s", async () => {
    const { builds, pauses } = watcher((read) => (read < 20 ? "building" : "completed"));
    const built = await builds.wait("hello", 1);
    expect(built.current_deployment?.status).toBe("completed");
    expect(pauses).toEqual([100, 100, 100, 100, 100, 100, 120, 144, 173, 207, 249, 299, 358, 430, 516, 619, 743, 892, 1000, 1000]);
  });
});
