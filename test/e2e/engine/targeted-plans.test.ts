import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { apply, applyPlan, defineConfig, isPlatformError, plan, toSavedPlan } from "../../../src/v1.js";

let emu: RunningEmulator;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-targets-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('hi');\n");
});
beforeEach(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 0, deployBuildMs: 5, domainActivationMs: 0 } });
});
afterEach(async () => emu.close());

const config = defineConfig({
  auth: true,
  buckets: { uploads: { access: "private" } },
  functions: { hello: { name: "Hello", source: "./fn", bundler: "none", customDomains: ["hello.example.com"] } },
  triggers: { hourly: { type: "schedule", function: "hello", cron: "0 * * * *" } },
  branch: () => ({ postgres: { computeSettings: { autoscalingLimitMaxCu: 4 } } }),
});
const options = () => ({ projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: dir, polling: { initialMs: 5, maxMs: 20 } });
const ALL = ["update:compute", "create:auth", "create:bucket.uploads", "create:function.hello", "create:trigger.hourly", "create:domain.hello.example.com"];

describe("targeted plans", () => {
  it("plans the whole branch without targets (the list the cases below narrow)", async () => {
    const result = await plan(config, options());
    expect(result.changes.map((c) => c.id)).toEqual(ALL);
    expect(result.selection).toBeUndefined();
  });

  it.each([
    { case: "a target brings the changes it depends on", sel: { targets: ["trigger.*"] }, selected: ["create:function.hello", "create:trigger.hourly"] },
    { case: "a target on the control-plane chain brings its predecessors", sel: { targets: ["auth"] }, selected: ["update:compute", "create:auth"] },
    { case: "an exclusion takes out every change that depends on it", sel: { exclude: ["function.hello"] }, selected: ["update:compute", "create:auth", "create:bucket.uploads"] },
    { case: "an exclusion wins over a target that depends on it", sel: { targets: ["domain.*", "bucket.*"], exclude: ["function.*"] }, selected: ["create:bucket.uploads"] },
  ])("$case", async ({ sel, selected }) => {
    const result = await plan(config, { ...options(), ...sel });
    expect(result.changes.map((c) => c.id)).toEqual(selected);
    expect(result.selection?.total).toBe(ALL.length);
    expect(result.selection?.pending.map((c) => c.id)).toEqual(ALL.filter((id) => !selected.includes(id)));
    expect(result.summary.create + result.summary.update).toBe(selected.length);
  });

  it("a targeted apply changes only the selection; an untargeted plan then shows exactly what it left pending", async () => {
    const targeted = await apply(config, { ...options(), targets: ["domain.hello.example.com"], updateExisting: true });
    expect(targeted.applied.map((a) => a.id)).toEqual(["create:function.hello", "create:domain.hello.example.com"]);
    const after = await plan(config, options());
    expect(after.changes.map((c) => c.id)).toEqual(targeted.selection?.pending.map((c) => c.id));
    expect(after.changes.map((c) => c.id)).toEqual(["update:compute", "create:auth", "create:bucket.uploads", "create:trigger.hourly"]);
  });

  it("a saved plan records its selection and applyPlan applies exactly that selection", async () => {
    const saved = toSavedPlan(await plan(config, { ...options(), exclude: ["compute"] }));
    expect(saved.selection).toEqual({ targets: [], exclude: ["compute"] });
    const roundTripped = JSON.parse(JSON.stringify(saved)) as typeof saved;
    const applied = await applyPlan(roundTripped, { ...options(), config });
    expect(applied.applied.map((a) => a.id)).toEqual(["create:bucket.uploads", "create:function.hello", "create:trigger.hourly", "create:domain.hello.example.com"]);
    expect((await plan(config, options())).changes.map((c) => c.id)).toEqual(["update:compute", "create:auth"]);
  });

  it("warns about a pattern that matches nothing, and rejects one that names no kind before any request", async () => {
    const result = await plan(config, { ...options(), targets: ["function.nope"] });
    expect(result.changes).toEqual([]);
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: "SELECTION_UNMATCHED", message: expect.stringContaining("function.nope") }));
    const before = emu.state.requests().length;
    const err = await plan(config, { ...options(), exclude: ["hello"] }).catch((e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_INVALID_OPTIONS")).toBe(true);
    expect((err as Error).message).toContain("exclude[0]");
    expect(emu.state.requests().length).toBe(before);
  });
});
