/**
 * The CLI's side of hostile policies: a policy that exits or never finishes fails the command
 * (never exit 0 of `validate` or `plan --detailed-exitcode`), and names from outside are printed
 * escaped. Real bin, real emulator.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { BIN, emptyDir, emulatorEnv, ensureBuilt, runProcess, runSvc, startTestEmulator } from "./harness.js";

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

describe("a policy that takes every file descriptor", () => {
  // It holds every descriptor the process may open (an open-file limit of 256 keeps that small), then
  // fails; a promise it left takes the few the evaluation's own watchdog frees. The CLI must still
  // print the policy's error, not a failure to load its own error view blamed on the policy.
  const HOARDING = [
    'import { openSync } from "node:fs";',
    "const hold = (): void => { try { for (let i = 0; i < 100_000; i++) openSync(\"/dev/null\", \"r\"); } catch {} };",
    "hold();",
    "Promise.resolve().then(hold);",
    'throw new Error("the policy\'s own failure");',
  ].join("\n");

  it.each([
    ["validate", ["config", "validate", "--no-bundle"]],
    ["plan --json", ["config", "plan", "--json"]],
  ])("%s still names the policy's own error", async (_command, args) => {
    const run = await runProcess("/bin/sh", ["-c", 'ulimit -n 256 && exec "$@"', "sh", process.execPath, BIN, ...args], { cwd: policyDir(HOARDING), env: emulatorEnv(emu) });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error PLATFORM_CONFIG_LOAD_FAILED");
    expect(run.stderr).toContain("the policy's own failure");
    expect(run.stderr).not.toContain("was ignored");
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

describe("function sources and shipped files", () => {
  const FN = "export default () => new Response('ok');\n";

  it("plan names each file bundler none leaves out among its warnings", async () => {
    const dir = policyDir('export default { functions: { api: { name: "Api", source: "./fn", bundler: "none" } } };');
    mkdirSync(join(dir, "fn"));
    writeFileSync(join(dir, "fn", "index.mjs"), FN);
    writeFileSync(join(dir, "fn", ".env.local"), "TOKEN=x");
    writeFileSync(join(dir, "fn", "server.pem"), "key");

    const run = await runSvc(["config", "plan"], { cwd: dir, env: emulatorEnv(emu) });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain("BUNDLER function.api: function api: excluded .env.local: ");
    expect(run.stdout).toContain("BUNDLER function.api: function api: excluded server.pem: ");
  });

  it("validate and plan refuse a source outside the project until --allow-external-sources", async () => {
    const outside = emptyDir();
    writeFileSync(join(outside, "index.mjs"), FN);
    const dir = policyDir(`export default { functions: { api: { name: "Api", source: ${JSON.stringify(outside)} } } };`);

    const refused = await runSvc(["config", "plan"], { cwd: dir, env: emulatorEnv(emu) });
    const allowed = await runSvc(["config", "plan", "--allow-external-sources"], { cwd: dir, env: emulatorEnv(emu) });

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`functions.api.source: resolves to ${outside}`);
    expect(refused.stderr).toContain("--allow-external-sources");
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("function.api");
    const validate = await runSvc(["config", "validate"], { cwd: dir, env: {} });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(`functions.api.source: resolves to ${outside}`);
    expect((await runSvc(["config", "validate", "--allow-external-sources"], { cwd: dir, env: {} })).code).toBe(0);
  });
});
