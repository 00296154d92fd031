/**
 * The CLI's side of hostile policies: a policy that exits or never finishes fails the command
 * (never exit 0 of `validate` or `plan --detailed-exitcode`), and names from outside are printed
 * escaped. Real bin, real emulator.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { emptyDir, emulatorEnv, ensureBuilt, runSvc, startTestEmulator } from "./harness.js";

let emu: RunningEmulator;
beforeAll(async () => {
  await ensureBuilt();
  emu = await startTestEmulator();
}, 180_000);
afterAll(() => emu.close());

function policyDir(svc: string): string {
  const dir = emptyDir();
  writeFileSync(join(dir, "svc.ts"), svc);
  return dir;
}

describe("a policy that quits or never finishes fails the command", () => {
  it.each([
    ["validate", "process.exit(0) at the top level", "process.exit(0);\nexport default {};", ["config", "validate"], "svc.ts (module top level) called process.exit(0)"],
    ["validate", "an endless top level under --eval-timeout 0.5", "for (;;) {}\nexport default {};", ["config", "validate", "--eval-timeout", "0.5"], "svc.ts (module top level) did not finish within 500 ms"],
    ["plan --detailed-exitcode", "process.exit(0) in the branch closure", "export default { branch: () => process.exit(0) };", ["config", "plan", "--detailed-exitcode"], "svc.ts (branch closure) called process.exit(0)"],
  ])("%s with %s exits non-zero naming the file and the phase", async (_command, _label, svc, args, message) => {
    const run = await runSvc(args, { cwd: policyDir(svc), env: emulatorEnv(emu) });

    expect(run.code).not.toBe(0);
    expect(run.code).not.toBe(2);
    expect(run.stderr).toContain("PLATFORM_CONFIG_LOAD_FAILED");
    expect(run.stderr).toContain(message);
  });
});

describe("outside text is printed escaped", () => {
  it("validate names a bidi-override bucket as \\u202e, never the raw character", async () => {
    const run = await runSvc(["config", "validate"], { cwd: policyDir('export default { buckets: { "invoice\\u202efdp.exe": {} } };'), env: {} });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('buckets["invoice\\u202efdp.exe"]');
    expect(run.stderr + run.stdout).not.toContain("\u202e");
  });
});
