import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { ApplyFailedError, apply, createPlatformApi, isPlatformError, plan, type ApiEvent, type PlatformApi } from "../../src/v1.js";
import { duplicateNames, expectedBranchState, readBranchState } from "./branch-state.js";
import { soakPolicyArb, toPolicyConfig, type SoakPolicy } from "./random-policy.js";
import { SOAK_FAULTS, faultLabel, shortSleep, soakEmulatorOptions } from "./soak-faults.js";

/** Applies in this run: 20 under `npm test`, 200 under `npm run test:reliability` (its config sets the variable). */
const APPLIES = Number(process.env.SVC_SOAK_APPLIES ?? "20");
/** The fast-check and fault seed; set SVC_SOAK_SEED to replay another sequence. */
const SEED = Number(process.env.SVC_SOAK_SEED ?? "20261122");

interface SoakCounts {
  applies: number;
  convergedFirstTime: number;
  failedThenConverged: number;
  errorCodes: Record<string, number>;
  /** Inside `PLATFORM_APPLY_FAILED`: `<code> <kind>.<action>` of each change that failed. */
  failedChangeCodes: Record<string, number>;
  faults: Record<string, number>;
  retries: number;
  retryAfterHonoured: number;
  changesApplied: number;
}

let emu: RunningEmulator;
let dir: string;
const sources = { v1: "", v2: "" };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-soak-"));
  for (const variant of ["v1", "v2"] as const) {
    mkdirSync(join(dir, variant));
    writeFileSync(join(dir, variant, "index.mjs"), `export default () => new Response("${variant}");\n`);
    sources[variant] = join(dir, variant);
  }
  emu = await startEmulator(soakEmulatorOptions(SEED));
});

afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(events: ApiEvent[]): PlatformApi {
  return createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, sleep: shortSleep(), onEvent: (e) => events.push(e) });
}

async function applyAndCheck(policy: SoakPolicy, counts: SoakCounts): Promise<void> {
  const config = toPolicyConfig(policy, sources);
  const events: ApiEvent[] = [];
  const options = { api: client(events), projectId: emu.projectId, branchId: emu.defaultBranchId, updateExisting: true, allowDataLoss: true };
  counts.applies += 1;
  emu.state.faults.set(SOAK_FAULTS, SEED + counts.applies);
  try {
    const result = await apply(config, options);
    counts.convergedFirstTime += 1;
    counts.changesApplied += result.applied.length;
  } catch (err) {
    if (!isPlatformError(err)) throw new Error(`apply ${counts.applies} threw an untyped error: ${String(err)}`, { cause: err });
    counts.errorCodes[err.code] = (counts.errorCodes[err.code] ?? 0) + 1;
    if (err instanceof ApplyFailedError) {
      for (const f of err.result.failed) {
        const key = `${f.error.code} ${f.change.kind}.${f.change.action}`;
        counts.failedChangeCodes[key] = (counts.failedChangeCodes[key] ?? 0) + 1;
      }
    }
    emu.state.faults.set(null);
    const next = await apply(config, options);
    counts.failedThenConverged += 1;
    counts.changesApplied += next.applied.length;
  } finally {
    emu.state.faults.set(null);
  }
  counts.retries += events.length;
  const after429 = events.filter((e) => e.status === 429);
  expect(after429.filter((e) => e.delayMs < 1000), `retries sooner than Retry-After: 1 in apply ${counts.applies}`).toEqual([]);
  counts.retryAfterHonoured += after429.length;
  await emu.settle();
  const state = readBranchState(emu, emu.defaultBranchId);
  expect(duplicateNames(state), `duplicates after apply ${counts.applies}`).toEqual([]);
  expect(state, `emulator state after apply ${counts.applies}`).toEqual(expectedBranchState(policy));
  const again = await plan(config, options);
  expect(again.changes.map((c) => c.id), `plan after apply ${counts.applies}`).toEqual([]);
}

describe("reliability soak against the emulator with faults", () => {
  it(`converges after each of ${APPLIES} applies of random policies, or fails typed and converges on the next apply`, async () => {
    const counts: SoakCounts = { applies: 0, convergedFirstTime: 0, failedThenConverged: 0, errorCodes: {}, failedChangeCodes: {}, faults: {}, retries: 0, retryAfterHonoured: 0, changesApplied: 0 };
    await fc.assert(
      fc.asyncProperty(soakPolicyArb, (policy) => applyAndCheck(policy, counts)),
      { seed: SEED, numRuns: APPLIES, endOnFailure: true },
    );
    for (const fault of emu.state.faults.injected()) {
      const label = faultLabel(fault);
      counts.faults[label] = (counts.faults[label] ?? 0) + 1;
    }
    console.info(`soak (seed ${SEED}): ${JSON.stringify(counts)}`);
    expect(counts.applies).toBe(APPLIES);
    expect(counts.convergedFirstTime + counts.failedThenConverged).toBe(APPLIES);
    expect(Object.keys(counts.faults).length).toBeGreaterThan(0);
  }, 1_800_000);
});
