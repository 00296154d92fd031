import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { startEmulator, type FaultRule, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { PushConflictError, apply, isPlatformError, plan, type PushResult } from "../../../src/v1.js";
import { type Scenario, corruptingUploads, discoverScenarios, expectedPlan, planSnapshot } from "../../helpers/engine-scenarios.js";

const TIMINGS = { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 };
const POLLING = { initialMs: 10, maxMs: 40 };
/**
 * Injected on the apply under test (not its setup). At most 4 injections in all, so even when
 * every one lands on the same request (the draws follow arrival order, which parallel reads
 * vary) its fifth and last request gets through: the test cannot flake on the retry budget.
 */
const FAULTS: FaultRule[] = [
  { kind: "status", status: 503, rate: 0.3, times: 1 },
  { kind: "status", status: 423, rate: 0.2, times: 1 },
  { kind: "status", status: 429, rate: 0.1, times: 1, retryAfterS: 1 },
  { kind: "reset", rate: 0.2, times: 1, methods: ["GET"] },
];

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function run(scenario: Scenario, faults: FaultRule[] = []): Promise<{ emu: RunningEmulator; options: Parameters<typeof plan>[1] }> {
  const emu = await startEmulator({ seed: scenario.seed as SeedDocument, timings: TIMINGS });
  emulator = emu;
  const api = corruptingUploads(createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling: POLLING }), scenario.spec.corruptZip ?? []);
  const options = { projectId: emu.projectId, branchId: scenario.spec.branchId ?? emu.defaultBranchId, api, polling: POLLING };
  if (scenario.spec.setup !== undefined) {
    const setup = await loadConfigFromFile({ path: join(scenario.dir, scenario.spec.setup) });
    await apply(setup.config, { ...options, updateExisting: true });
  }
  if (faults.length > 0) emu.state.faults.set(faults, 7);
  return { emu, options };
}

async function applyScenario(scenario: Scenario, options: Parameters<typeof plan>[1]): Promise<unknown> {
  const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
  try {
    return await apply(config, { ...options, ...scenario.spec.apply });
  } catch (err) {
    return err;
  }
}

describe.each(discoverScenarios())("scenario $name", (scenario) => {
  it(`plans as expected-plan.json records (${scenario.spec.description})`, async () => {
    const { options } = await run(scenario);
    const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
    const snapshot = planSnapshot(await plan(config, options));
    expect(snapshot).toEqual(expectedPlan(scenario, snapshot));
  });

  it("applies with the expected outcome, then plans clean when it converges (after updateExisting when only overrides held it)", async () => {
    const { options } = await run(scenario);
    const outcome = await applyScenario(scenario, options);
    const expected = scenario.spec.expectApply;
    if (expected.error !== undefined) {
      expect(isPlatformError(outcome) ? outcome.code : outcome).toBe(expected.error);
      const result = (outcome as { details: { result?: { failed: { change: { id: string } }[]; skipped: { change: { id: string } }[] } } }).details.result;
      if (expected.failed) expect(result?.failed.map((f) => f.change.id)).toEqual(expected.failed);
      if (expected.skipped) expect(result?.skipped.map((s) => s.change.id)).toEqual(expected.skipped);
      if (!(outcome instanceof PushConflictError) || outcome.conflicts.some((c) => c.blocking)) return;
      const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
      await apply(config, { ...options, ...scenario.spec.apply, updateExisting: true });
      expect((await plan(config, options)).changes).toEqual([]);
      return;
    }
    expect(isPlatformError(outcome) ? outcome.message : "ok").toBe("ok");
    for (const [id, details] of Object.entries(expected.details ?? {})) {
      expect((outcome as PushResult).applied.find((a) => a.id === id)?.details).toMatchObject(details);
    }
    const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
    const second = await plan(config, options);
    expect(second.changes).toEqual([]);
    expect(second.conflicts).toEqual([]);
  });

  if (scenario.spec.expectApply.error !== undefined) return;
  it("converges under injected 503, 423, 429 and read resets", async () => {
    const { emu, options } = await run(scenario, FAULTS);
    const outcome = await applyScenario(scenario, options);
    expect(isPlatformError(outcome) ? outcome.message : "ok").toBe("ok");
    emu.state.faults.set(null);
    const { config } = await loadConfigFromFile({ path: join(scenario.dir, "svc.ts") });
    expect((await plan(config, options)).changes).toEqual([]);
    expect(emu.state.faults.injected().length).toBeGreaterThan(0);
  });
});
