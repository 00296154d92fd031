/**
 * The saved plan of every fixture scenario, byte for byte. `saved-plan.json` in each scenario
 * folder was captured once from the code before the resource kinds moved into `src/kinds/`
 * (`SVC_UPDATE_FIXTURES=1` writes it, refused under `CI`), so a refactor that changes a plan's
 * public JSON (a change's `before`/`after`, a reason, an order, a digest) fails here. The clock is
 * fixed on both sides: the emulator's and the engine's `Date`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { startEmulator, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { apply, plan, toSavedPlan } from "../../../src/v1.js";
import { type Scenario, discoverScenarios } from "../../helpers/engine-scenarios.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const TIMINGS = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };
const POLLING = { initialMs: 5, maxMs: 20 };

let emulator: RunningEmulator | undefined;
beforeAll(() => {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
});
afterAll(() => {
  vi.useRealTimers();
});
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** The saved plan of `scenario`, as `svc config plan --out` would write it (pretty JSON, one trailing newline). */
async function savedPlanText(scenario: Scenario): Promise<string> {
  const emu = await startEmulator({ seed: scenario.seed as SeedDocument, timings: TIMINGS, clock: NOW, idSeed: 26 });
  emulator = emu;
  const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING });
  const options = { projectId: emu.projectId, branchId: scenario.spec.branchId ?? emu.defaultBranchId, api, polling: POLLING };
  if (scenario.spec.setup !== undefined) {
    const setup = await loadConfigFromFile({ path: join(scenario.dir, scenario.spec.setup) });
    await apply(setup.config, { ...options, updateExisting: true });
  }
  const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
  const saved = toSavedPlan(await plan(config, { ...options, ...scenario.spec.apply }), NOW);
  return `${JSON.stringify({ ...saved, libraryVersion: "(any)" }, null, 2)}\n`;
}

function expectedText(scenario: Scenario, actual: string): string {
  const file = join(scenario.dir, "saved-plan.json");
  if (process.env.SVC_UPDATE_FIXTURES === "1") {
    if (process.env.CI) throw new Error("SVC_UPDATE_FIXTURES=1 is refused under CI: update saved plans locally and commit them");
    writeFileSync(file, actual);
    return actual;
  }
  if (!existsSync(file)) throw new Error(`${file} is missing; run this test with SVC_UPDATE_FIXTURES=1 to write it, then review it`);
  return readFileSync(file, "utf8");
}

describe.each(discoverScenarios())("scenario $name", (scenario) => {
  it("saves the same plan JSON, byte for byte, as saved-plan.json records", async () => {
    const actual = await savedPlanText(scenario);
    expect(actual).toBe(expectedText(scenario, actual));
  });
});
