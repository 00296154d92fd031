import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanPolicy } from "../../fixtures/secret-scan/project/policy.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import {
  apply,
  applyPlan,
  defineConfig,
  inspect,
  plan,
  pullConfig,
  renderPolicySource,
  toSavedPlan,
  type EngineEvent,
  type PolicyConfig,
} from "../../src/v1.js";
import { emulatorEnv, ensureBuilt, runSvc, type RunResult } from "./cli/harness.js";
import { OutputLog, ROTATED_TOKEN, SCAN_API_KEY, SCAN_PROJECT, WRONG_API_KEY, plantedEnv, plantedValues } from "./secret-scan.helpers.js";

const TIMINGS = { opSchedulingMs: 0, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 };
const DEPLOYMENTS = "/api/v2/projects/*/branches/*/functions/*/deployments";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKey: SCAN_API_KEY, timings: TIMINGS });
});
afterAll(async () => emu.close());

/** Fails with the run's output in the message (only reached when the test fails anyway). */
function expectExit(result: RunResult, code: number): void {
  expect(result.code, `exit code; stderr:\n${result.stderr}`).toBe(code);
}

function config(env: Record<string, string>): PolicyConfig {
  return defineConfig(scanPolicy(env));
}

async function expectThrown(label: string, log: OutputLog, run: () => Promise<unknown>): Promise<unknown> {
  const err = await run().then(
    () => new Error(`${label}: expected an error, got a result`),
    (e: unknown) => e,
  );
  log.addError(label, err);
  return err;
}

describe("planted secrets never appear in library output", () => {
  it("keeps env values and API keys out of plans, results, events, saved plans, inspect output and errors", async () => {
    const log = new OutputLog();
    const events: EngineEvent[] = [];
    const env = plantedEnv();
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: SCAN_API_KEY, apiHost: emu.apiHost, baseDir: SCAN_PROJECT, polling: { initialMs: 10, maxMs: 20 }, onEvent: (e: EngineEvent) => events.push(e) };

    const planned = await plan(config(env), options);
    log.add("plan result", planned);
    const saved = toSavedPlan(planned);
    log.add("saved plan", saved);
    expect(planned.changes.map((c) => c.id)).toContain("create:function.hello");

    const conflict = await expectThrown("apply without updateExisting", log, () => apply(config(env), options));
    expect(conflict).toMatchObject({ code: "PLATFORM_PUSH_CONFLICT" });

    log.add("apply result", await apply(config(env), { ...options, updateExisting: true }));
    const rotated = { ...env, API_TOKEN: ROTATED_TOKEN };
    const envChange = await plan(config(rotated), options);
    log.add("env change plan", envChange);
    expect(envChange.changes.find((c) => c.id === "update:function.hello")?.fields).toEqual(["env"]);

    const stale = await expectThrown("stale saved plan", log, () => applyPlan(saved, { ...options, config: config(env), updateExisting: true }));
    expect(stale).toMatchObject({ code: "PLATFORM_STALE_PLAN" });

    emu.state.faults.set([{ kind: "status", status: 500, methods: ["POST"], path: DEPLOYMENTS }]);
    const failed = await expectThrown("failed deployment", log, () => apply(config(rotated), { ...options, updateExisting: true }));
    emu.state.faults.set(null);
    expect(failed).toMatchObject({ code: "PLATFORM_APPLY_FAILED" });

    const rejected = await expectThrown("wrong API key", log, () => plan(config(env), { ...options, apiKey: WRONG_API_KEY }));
    expect(rejected).toMatchObject({ code: "PLATFORM_UNAUTHORIZED" });
    const invalid = await expectThrown("invalid policy", log, () =>
      plan({ functions: { hello: { source: "./functions/hello", env: { "bad-name": env.API_TOKEN ?? "", OK: 42 } } } } as unknown as PolicyConfig, options),
    );
    expect(invalid).toMatchObject({ code: "PLATFORM_CONFIG_INVALID" });

    const live = await inspect(options);
    log.add("inspect", live);
    log.add("pullConfig source", renderPolicySource(await pullConfig(options)));
    log.add("events", events);

    expect(log.leaks(plantedValues())).toEqual([]);
    expect(log.entries.length).toBeGreaterThan(20);
  });

  it("keeps env values out of the error when the platform rejects an oversized environment", async () => {
    const small = await startEmulator({ apiKey: SCAN_API_KEY, timings: TIMINGS, limits: { environmentBytes: 64 } });
    try {
      const log = new OutputLog();
      const options = { projectId: small.projectId, branchId: small.defaultBranchId, apiKey: SCAN_API_KEY, apiHost: small.apiHost, baseDir: SCAN_PROJECT, updateExisting: true, polling: { initialMs: 10, maxMs: 20 } };
      const err = await expectThrown("oversized environment", log, () => apply(config(plantedEnv()), options));
      expect(err).toMatchObject({ code: "PLATFORM_APPLY_FAILED" });
      expect(log.leaks(plantedValues())).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe("planted secrets never appear in svc output", () => {
  let dir: string;
  let emu: RunningEmulator;
  beforeAll(async () => {
    await ensureBuilt();
    emu = await startEmulator({ apiKey: SCAN_API_KEY, timings: TIMINGS });
    dir = mkdtempSync(join(tmpdir(), "svc-secret-scan-"));
    cpSync(SCAN_PROJECT, dir, { recursive: true });
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, ".env.rotated"), readFileSync(join(dir, ".env.scan"), "utf8").replace(/^API_TOKEN=.*$/m, `API_TOKEN=${ROTATED_TOKEN}`));
    writeFileSync(join(dir, "svc.invalid.ts"), `export default { functions: { hello: { source: "./functions/hello", env: { "bad-name": process.env.API_TOKEN, PIN: process.env.SHORT_PIN, N: 7 } } } };\n`);
  }, 300_000);
  afterAll(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps them out of every view, the saved plan file and every error path of the real bin", async () => {
    const log = new OutputLog();
    const base = { ...emulatorEnv(emu), CI: "1" };
    const svc = async (label: string, args: string[], env: Record<string, string> = base): Promise<RunResult> => {
      const result = await runSvc(args, { cwd: dir, env });
      log.add(`${label} stdout`, result.stdout);
      log.add(`${label} stderr`, result.stderr);
      return result;
    };
    const scan = ["--env", ".env.scan"];

    expectExit(await svc("validate", ["config", "validate", ...scan]), 0);
    await svc("validate --json", ["config", "validate", "--json", ...scan]);
    expectExit(await svc("plan", ["config", "plan", ...scan]), 0);
    const json = await svc("plan --json", ["config", "plan", "--json", ...scan]);
    expect(json.stdout).toContain("(sensitive)");
    await svc("plan --markdown", ["config", "plan", "--markdown", ...scan]);
    await svc("plan --verbose --out", ["config", "plan", "--verbose", "--out", "plan.json", ...scan]);
    log.add("saved plan file", readFileSync(join(dir, "plan.json"), "utf8"));
    expectExit(await svc("apply without flags", ["config", "apply", ...scan]), 4);
    expectExit(await svc("apply --yes --verbose", ["config", "apply", "--yes", "--verbose", ...scan]), 0);
    await svc("apply --json (no changes)", ["config", "apply", "--yes", "--json", ...scan]);
    await svc("stale saved plan", ["config", "apply", "plan.json", "--yes", ...scan]);
    await svc("plan of a rotated value", ["config", "plan", "--env", ".env.rotated"]);
    await svc("plan --json of a rotated value", ["config", "plan", "--json", "--env", ".env.rotated"]);
    await svc("status", ["config", "status", ...scan]);
    await svc("status --json", ["config", "status", "--json", ...scan]);
    await svc("pull", ["config", "pull", ...scan]);

    emu.state.faults.set([{ kind: "status", status: 500, methods: ["POST"], path: DEPLOYMENTS }]);
    const failed = await svc("failed apply", ["config", "apply", "--yes", "--verbose", "--env", ".env.rotated"]);
    const failedJson = await svc("failed apply --json", ["config", "apply", "--yes", "--json", "--env", ".env.rotated"]);
    emu.state.faults.set(null);
    expect([failed.code, failedJson.code], "nothing applied, so exit 1").toEqual([1, 1]);
    expect(failed.stderr).toContain("PLATFORM_APPLY_FAILED");

    expectExit(await svc("wrong key", ["config", "plan", "--verbose", ...scan], { ...base, SVC_API_KEY: WRONG_API_KEY }), 1);
    await svc("wrong key --json", ["config", "apply", "--yes", "--json", ...scan], { ...base, SVC_API_KEY: WRONG_API_KEY });
    expectExit(await svc("invalid policy", ["config", "plan", "--verbose", "--config", "svc.invalid.ts", ...scan]), 1);
    await svc("invalid policy validate --json", ["config", "validate", "--json", "--config", "svc.invalid.ts", ...scan]);

    expect(log.leaks(plantedValues())).toEqual([]);
    const control = new OutputLog();
    control.add("the .env.scan file itself", readFileSync(join(dir, ".env.scan"), "utf8"));
    expect(control.leaks(plantedValues()), "the scan finds planted values where they are").toHaveLength(4);
  }, 300_000);
});
