import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { emulatorEnv, ensureBuilt, projectDir, runSvc, startTestEmulator, type RunResult } from "./harness.js";

let emu: RunningEmulator;
let cwd: string;
beforeAll(async () => ensureBuilt(), 180_000);
beforeEach(async () => {
  emu = await startTestEmulator();
  cwd = projectDir();
});
afterEach(async () => emu.close());

const svc = (args: string[]): Promise<RunResult> => runSvc([...args, "--env", ".env.ci"], { cwd, env: emulatorEnv(emu) });

describe("--target / --exclude", () => {
  it("plan says how much is targeted and what remains; --detailed-exitcode still reports the pending changes", async () => {
    const run = await svc(["config", "plan", "--target", "bucket.avatars", "--detailed-exitcode"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("  + bucket.avatars");
    expect(run.stdout).not.toContain("function.hello");
    expect(run.stdout.trimEnd().split("\n").slice(-2)).toEqual(["Plan: 1 to create, 0 to update, 0 to delete; 0 conflicts", "targeted: 1 of 4 changes; 3 remain pending"]);
    const md = await svc(["config", "plan", "--markdown", "--exclude", "function.*"]);
    expect(md.stdout).toContain("**Plan: 1 to create, 1 to update, 0 to delete; 0 conflicts**\n\ntargeted: 2 of 4 changes; 2 remain pending\n");
  });

  it("a targeted apply, then an untargeted plan shows exactly the changes it left pending", async () => {
    const planned = planDocumentSchema.parse(JSON.parse((await svc(["config", "plan", "--json", "--target", "trigger.hourly"])).stdout));
    expect(planned.changes.map((c) => c.id)).toEqual(["create:function.hello", "create:trigger.hourly"]);
    expect(planned.selection).toEqual({ targets: ["trigger.hourly"], exclude: [], total: 4, selected: 2, pending: ["update:compute", "create:bucket.avatars"], pendingConflicts: 0 });
    const applied = await svc(["config", "apply", "--target", "trigger.hourly", "--yes", "--branch", emu.defaultBranchId]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("targeted: 2 of 4 changes; 2 remain pending");
    const after = await svc(["config", "plan", "--json", "--detailed-exitcode"]);
    expect(after.code).toBe(2);
    expect(planDocumentSchema.parse(JSON.parse(after.stdout)).changes.map((c) => c.id)).toEqual(planned.selection?.pending);
  });

  it("an empty selection with work outside it is not 'No changes': exit 2 under --detailed-exitcode", async () => {
    const run = await svc(["config", "plan", "--target", "domain.*", "--detailed-exitcode"]);
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain("No changes.");
    expect(run.stdout).toContain("targeted: 0 of 4 changes; 4 remain pending");
    expect(run.stdout).toContain('SELECTION_UNMATCHED: targets pattern "domain.*" matches no change or conflict of this plan');
    const quiet = await svc(["config", "apply", "--target", "domain.*", "--quiet", "--branch", emu.defaultBranchId]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("targeted: 0 of 4 changes; 4 remain pending\n");
  });
});
