/**
 * README.md's Quick start, run as written: its `svc.ts` and `deploy.mjs`, in an app where
 * svc-config is installed, with `node --env-file=.env.emulator deploy.mjs` against an emulator.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, emptyDir, emulatorEnv, runProcess, runSvc, useEmulatorProject } from "./harness.js";

const project = useEmulatorProject();
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const quickStart = README.slice(README.indexOf("## Quick start"), README.indexOf("## What is in the box"));

/** The code block of the Quick start whose first line names `file` (`// svc.ts`). */
function block(file: string): string {
  const found = [...quickStart.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").find((code) => code.startsWith(`// ${file}\n`));
  if (found === undefined) throw new Error(`README.md's Quick start has no block for ${file}`);
  return found;
}

describe("README.md's Quick start", () => {
  it("runs as written against the emulator: the script plans and applies svc.ts, and a second run applies nothing", async () => {
    const app = emptyDir();
    writeFileSync(join(app, "package.json"), '{ "name": "app", "version": "1.0.0", "type": "module" }\n');
    mkdirSync(join(app, "node_modules"));
    symlinkSync(ROOT, join(app, "node_modules", "svc-config"));
    expect((await runSvc(["config", "init"], { cwd: app, env: {} })).code).toBe(0);
    writeFileSync(join(app, "svc.ts"), block("svc.ts"));
    writeFileSync(join(app, "deploy.mjs"), block("deploy.mjs"));
    const command = /```sh\n(node --env-file=\.env\.emulator deploy\.mjs)\n```/.exec(quickStart)?.[1];
    expect(command).toBe("node --env-file=.env.emulator deploy.mjs");
    const env = emulatorEnv(project.emu());
    writeFileSync(join(app, ".env.emulator"), Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(""));

    const first = await runProcess(process.execPath, ["--env-file=.env.emulator", "deploy.mjs"], { cwd: app, env: {} });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\{ create: \d+, update: \d+, delete: 0, conflicts: 0 \} \[\]$/m);
    expect(first.stdout).toMatch(/^applied [1-9]\d* changes to main$/m);
    const again = await runProcess(process.execPath, ["--env-file=.env.emulator", "deploy.mjs"], { cwd: app, env: {} });
    expect(again.stdout).toMatch(/^applied 0 changes to main$/m);
  }, 120_000);
});
