/**
 * The apply's limit on requests in flight, end to end: a read retried after no answer at all (a
 * reset connection here; a connection that could not open or a time limit alike) halves it as a
 * 429 does, so what the apply sends after it goes out at most half as many at once, growing back
 * by half per window of answers.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createPlatformApi, defineConfig, pushConfig } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const FUNCTIONS = 16;
/** The limit starts at 2 and may grow to 8: the 16 trigger creations wait for it. */
const LIMITS = { concurrency: 2, maxConcurrency: 8 };

let emu: RunningEmulator;
let tree: TempTree;
beforeEach(async () => {
  emu = await startEmulator({ latencyMs: 30, timings: { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 400, domainActivationMs: 0 } });
  tree = createTempTree();
  mkdirSync(tree.path("fn"));
  writeFileSync(tree.path("fn/index.mjs"), "export default () => new Response('ok');\n");
});
afterEach(async () => {
  await emu.close();
  tree.remove();
});

/** Sixteen functions, each with a schedule trigger created once its build is done. */
const config = defineConfig({
  functions: Object.fromEntries(Array.from({ length: FUNCTIONS }, (_, i) => [`fn${i}`, { name: `Function ${i}`, source: "./fn", bundler: "none" as const }])),
  triggers: Object.fromEntries(Array.from({ length: FUNCTIONS }, (_, i) => [`t${i}`, { type: "schedule" as const, function: `fn${i}`, cron: "0 * * * *" }])),
});

/**
 * Applies the policy and answers the most trigger creations that were in flight at once.
 * `afterRenames` runs once the sixteen display-name updates are answered: from then on the apply
 * only polls the builds, then creates the triggers, so what the limit does there shows in them.
 */
async function triggerPeak(afterRenames: () => void = () => undefined): Promise<number> {
  let inFlight = 0;
  let peak = 0;
  let renamed = 0;
  const counting: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const trigger = init?.method === "POST" && url.endsWith("/triggers");
    if (trigger) peak = Math.max(peak, ++inFlight);
    try {
      return await fetch(input, init);
    } finally {
      if (trigger) inFlight -= 1;
      if (init?.method === "PATCH" && ++renamed === FUNCTIONS) afterRenames();
    }
  };
  const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, fetch: counting });
  const result = await pushConfig(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, api, baseDir: tree.path(), updateExisting: true, ...LIMITS });
  expect(result.applied).toHaveLength(2 * FUNCTIONS);
  return peak;
}

describe("the apply's limit after a read that got no answer", () => {
  it("sends the trigger creations up to the grown limit when every read is answered", async () => {
    expect(await triggerPeak()).toBe(LIMITS.maxConcurrency);
  });

  it("halves when the build watcher's read of the functions is reset and resent: the creations after it go out at most 4, then 6, at once", async () => {
    const peak = await triggerPeak(() => emu.state.faults.once({ kind: "reset", methods: ["GET"], path: "/api/v2/projects/*/branches/*/functions" }));
    expect(emu.state.faults.injected().map((f) => f.kind)).toEqual(["reset"]);
    expect(peak).toBeLessThanOrEqual(6);
  });
});
