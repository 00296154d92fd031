/**
 * What a new user meets on the first day, through the real bin against a real emulator: the
 * messages of a policy that does not parse or does not validate.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, emptyDir, emulatorEnv, runProcess, runSvc, useEmulatorProject } from "./harness.js";

const project = useEmulatorProject();
const emu = () => project.emu();

function policyDir(files: Record<string, string>): string {
  const dir = emptyDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("a policy that does not parse", () => {
  it("shows esbuild's first error with the line, and the bracket that was left open", async () => {
    const svc = ["export default {", "  functions: {", '    api: { name: "API", source: "./fn",', "  },", '  buckets: { uploads: { access: "private" } },', "};", ""].join("\n");
    const run = await runSvc(["config", "validate"], { cwd: policyDir({ "svc.ts": svc }), env: {} });

    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n");
    expect(lines[0]).toMatch(/^error PLATFORM_CONFIG_LOAD_FAILED: failed to evaluate \S+\/svc\.ts: \S+\/svc\.ts:6:2: Expected "}" but found ";"$/);
    expect(lines[1]).toBe("    > };");
    expect(lines[2]).toMatch(/^ {2}- the "\{" at \S+\/svc\.ts:3:10 is probably not closed/);
    expect(lines[3]).toMatch(/^ {2}hint: Fix \S+\/svc\.ts:3:10 \(the error above\)/);
  });
});

describe("an invalid policy is PLATFORM_CONFIG_INVALID in every command, and the hint names its file", () => {
  const invalidStatic = 'export default { buckets: { uploads: { access: "open" } } };\n';
  const invalidTuning = 'export default { branch: () => ({ ttl: "7" }) };\n';
  const invalidDefined = 'import { defineConfig } from "svc-config/v1";\nexport default defineConfig({ buckets: { uploads: { access: "open" } } });\n';

  it.each([
    ["the static part", ["config", "validate", "--config", "m1.ts"], invalidStatic],
    ["the static part", ["config", "plan", "--config", "m1.ts"], invalidStatic],
    ["the static part", ["config", "apply", "--config", "m1.ts", "--yes"], invalidStatic],
    ["the branch tuning", ["config", "validate", "--config", "m1.ts"], invalidTuning],
    ["the branch tuning", ["config", "plan", "--config", "m1.ts"], invalidTuning],
    ["a defineConfig call, which validates while the file runs", ["config", "plan", "--config", "m1.ts"], invalidDefined],
    ["a defineConfig call, which validates while the file runs", ["config", "validate", "--config", "m1.ts"], invalidDefined],
  ])("%s, through svc %j", async (_part, args, policy) => {
    const run = await runSvc(args, { cwd: policyDir({ "m1.ts": policy }), env: emulatorEnv(emu()) });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error PLATFORM_CONFIG_INVALID: /m);
    expect(run.stderr).not.toContain("PLATFORM_CONFIG_LOAD_FAILED");
    expect(run.stderr).toMatch(/ {2}hint: Fix each listed field in \S*m1\.ts, then run svc config validate/);
    expect(run.stderr).not.toContain("svc.ts");
  });

  it.each([
    [["config", "validate"]],
    [["config", "plan"]],
  ])("an issue with the exported object itself is labelled top level, and the --config file is named as given: svc %j", async (args) => {
    const dir = policyDir({ "svc.ts": "export default 42;\n" });
    const run = await runSvc(args, { cwd: dir, env: emulatorEnv(emu()) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("  - top level: must be an object such as defineConfig({ functions: { … } }) (got a number)\n");
    expect(run.stderr).not.toContain("(policy)");

    const missing = await runSvc([...args, "--config", "nope.ts"], { cwd: dir, env: emulatorEnv(emu()) });
    expect(missing.stderr).toContain(`policy file ${join(dir, "nope.ts")} does not exist ("nope.ts" resolved against ${dir}); name an existing file, or name none to search for svc.ts`);
    expect(missing.stderr).not.toContain("`path`");
  });

  it("with --json, the error document carries the same code", async () => {
    const run = await runSvc(["config", "plan", "--config", "m1.ts", "--json"], { cwd: policyDir({ "m1.ts": invalidStatic }), env: emulatorEnv(emu()) });

    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as { error: { code: string; hint: string } };
    expect(doc.error.code).toBe("PLATFORM_CONFIG_INVALID");
    expect(doc.error.hint).toMatch(/m1\.ts/);
  });
});

describe("svc config status", () => {
  it("shows the branch's computes, roles and databases, in text and in --json", async () => {
    const text = await project.svc(["config", "status"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Computes \(1\)\n {2}ep-\S+ \(read_write[^)]*\): [\d.]+(-[\d.]+)? CU, suspends after /m);
    expect(text.stdout).toMatch(/^Roles \(\d+\)\n(?: {2}.*\n)*? {2}neondb_owner\b/m);
    expect(text.stdout).toMatch(/^Databases \(\d+\)\n(?: {2}.*\n)*? {2}neondb \(owner neondb_owner\)$/m);

    const json = await project.svc(["config", "status", "--json"]);
    const doc = JSON.parse(json.stdout) as { computes: { type: string; minCu: number }[]; roles: { name: string }[]; databases: { name: string; owner: string }[] };
    expect(doc.computes.map((c) => c.type)).toEqual(["read_write"]);
    expect(doc.roles.map((r) => r.name)).toContain("neondb_owner");
    expect(doc.databases).toContainEqual({ name: "neondb", owner: "neondb_owner" });
  });

  it("--help says what --quiet keeps", async () => {
    const help = await runSvc(["config", "plan", "--help"], { cwd: emptyDir(), env: {} });
    expect(help.stdout.replace(/\s+/g, " ")).toContain("--quiet print only the target line, the summary or result line, and errors: no change list, no progress");
  });
});

describe("svc config init in an app made with npm init -y", () => {
  /** An app as `npm init -y` leaves it (CommonJS), with svc-config and @types/node installed. */
  function commonJsApp(): string {
    const dir = emptyDir();
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "my-app", version: "1.0.0", main: "index.js", type: "commonjs" }, null, 2)}\n`);
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "svc-config"));
    symlinkSync(join(ROOT, "node_modules", "@types"), join(dir, "node_modules", "@types"));
    return dir;
  }

  it('writes a tsconfig.json the scaffold type-checks with, and says to add "type": "module"', async () => {
    const dir = commonJsApp();
    const run = await runSvc(["config", "init"], { cwd: dir, env: {} });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("wrote tsconfig.json\n");
    expect(run.stderr).toContain('package.json has no "type": "module": add it');
    expect(run.stderr).toContain("wrote a minimal one");
    const tsc = await runProcess(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, env: {} });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    expect((await runSvc(["config", "validate"], { cwd: dir, env: {} })).code).toBe(0);
  });

  it("writes no tsconfig.json with --no-tsconfig, and says what one needs", async () => {
    const dir = commonJsApp();
    const run = await runSvc(["config", "init", "--no-tsconfig"], { cwd: dir, env: {} });
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "tsconfig.json"))).toBe(false);
    expect(run.stderr).toContain('No tsconfig.json here: for editor types, add one with "moduleResolution": "Bundler"');
  });

  it("keeps an existing tsconfig.json and says when its module resolution cannot see svc-config/v1", async () => {
    const dir = commonJsApp();
    const mine = '{\n  // mine\n  "compilerOptions": { "module": "commonjs", "moduleResolution": "node" }\n}\n';
    writeFileSync(join(dir, "tsconfig.json"), mine);
    const run = await runSvc(["config", "init"], { cwd: dir, env: {} });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe(mine);
    expect(run.stderr).toContain('tsconfig.json resolves modules as "node", which cannot see svc-config/v1: set "moduleResolution": "Bundler"');
  });
});

describe("a secret written in the policy", () => {
  const fn = 'export default { fetch: () => new Response("ok") };\n';
  const policy = (env: string, helper = ""): string =>
    `${helper}export default { functions: { api: { name: "API", source: "./fn.mjs", env: { ${env} } } } };\n`;

  it.each([
    ["in svc.ts", { "svc.ts": policy('LOG_LEVEL: "debug", STRIPE_SECRET_KEY: "sk_live_51HxQe2LkdIwHu7ix"') }, "svc.ts"],
    ["in a module svc.ts imports", { "svc.ts": policy("API_TOKEN: token", 'import { token } from "./keys.mjs";\n'), "keys.mjs": 'export const token = "tok-9f8e7d6c5b4a";\n' }, "keys.mjs"],
  ])("%s: validate warns on stderr naming the variable and the file, never the value, and stays valid", async (_label, files, file) => {
    const run = await runSvc(["config", "validate"], { cwd: policyDir({ ...files, "fn.mjs": fn }), env: {} });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("svc.ts is valid.\n");
    const name = file === "svc.ts" ? "STRIPE_SECRET_KEY" : "API_TOKEN";
    expect(run.stderr).toBe(
      `warning: functions.api.env.${name}: its value is written in ${file}, so it is committed with the file; ` +
        `read it from the environment instead (process.env.${name}, set from an --env file or your CI's secrets)\n`,
    );
  });

  it("says nothing of a value read from the environment, nor of a variable not named like a secret", async () => {
    const files = { "svc.ts": policy('LOG_LEVEL: "verbose-debug", STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? ""'), "fn.mjs": fn };
    const run = await runSvc(["config", "validate"], { cwd: policyDir(files), env: { STRIPE_SECRET_KEY: "sk_live_51HxQe2LkdIwHu7ix" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
  });
});

describe("svc branch connection-string with the branch as an argument", () => {
  it("prints what --branch prints, and refuses an argument and a --branch that name two branches", async () => {
    const flag = await project.svc(["branch", "connection-string", "--branch", "main"]);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/^postgresql:\/\/\S+\n$/);
    const argument = await project.svc(["branch", "connection-string", "main"]);
    expect(argument.code).toBe(0);
    expect(argument.stdout).toBe(flag.stdout);
    const both = await project.svc(["branch", "connection-string", "main", "--branch", "feature/login"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('error CLI_USAGE: the branch is given twice: "main" as the argument and "feature/login" as --branch; give one');
  });
});
