/**
 * Lifecycle hooks, run by the real bin against the emulator over HTTP with real PostgreSQL
 * branches: a create.after migration with psql on the new branch, deploy before/after semantics
 * and exit codes, the context and variables hooks get, no hook process outliving a killed svc, and
 * the commands that never run hooks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { psql, requirePsql } from "../../helpers/psql.js";
import { eventually, isAlive } from "../dev/dev-harness.js";
import { emptyDir, emulatorEnv, runSvc, useEmulatorProject, type RunResult } from "./harness.js";

beforeAll(requirePsql);
const shared = useEmulatorProject({ emulator: { realDatabases: true } });

/** A project with `svc.ts` = `policy` and a hello function. */
function project(policy: string): string {
  const dir = emptyDir();
  mkdirSync(join(dir, "hello"));
  writeFileSync(join(dir, "hello", "index.ts"), "export default () => new Response('hi');\n");
  writeFileSync(join(dir, "svc.ts"), policy);
  return dir;
}

const HELLO = 'hello: { name: "Hello", source: "./hello" }';

/** Every URL and password the emulator handed out must be absent from what svc printed. */
async function expectNoConnectionSecrets(run: RunResult, url: string): Promise<void> {
  const { password } = new URL(url);
  for (const out of [run.stdout, run.stderr]) {
    expect(out).not.toContain(url);
    expect(out).not.toContain(password);
  }
}

describe("create.after", () => {
  it("runs a psql migration against the new branch's DATABASE_URL; the table exists there", async () => {
    const dir = project(`export default {\n  hooks: { create: { after: 'psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -c "CREATE TABLE migrated (id int)"' } },\n};\n`);
    const env = emulatorEnv(shared.emu());
    const created = await runSvc(["branch", "create", "preview-hooks"], { cwd: dir, env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain("Running hook create.after");
    expect(created.stderr).toContain("[hook create.after] CREATE TABLE");

    const url = await runSvc(["branch", "connection-string", "--branch", "preview-hooks"], { cwd: dir, env });
    expect(url.code).toBe(0);
    const connection = url.stdout.trim();
    expect(await psql(connection, "SELECT count(*) FROM migrated")).toBe("0");
    await expectNoConnectionSecrets(created, connection);

    const main = await runSvc(["branch", "connection-string"], { cwd: dir, env });
    await expect(psql(main.stdout.trim(), "SELECT count(*) FROM migrated")).rejects.toThrow(/does not exist/);
  }, 180_000);

  it("a failing create.before leaves no branch behind", async () => {
    const dir = project('export default { hooks: { create: { before: "echo refusing; exit 4" } } };\n');
    const env = emulatorEnv(shared.emu());
    const run = await runSvc(["branch", "create", "never-made"], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("[hook create.before] refusing");
    expect(run.stderr).toContain("error PLATFORM_HOOK_FAILED: hook create.before failed: its command exited with code 4");
    const list = await runSvc(["branch", "delete", "never-made", "--yes"], { cwd: dir, env });
    expect(list.stdout).toContain("does not exist");
  }, 120_000);
});

describe("deploy hooks", () => {
  it("a failing deploy.before aborts before any change: exit 1, PLATFORM_HOOK_FAILED, nothing applied", async () => {
    const dir = project(`export default { functions: { ${HELLO} }, hooks: { deploy: { before: ["echo checking", "exit 9"] } } };\n`);
    const env = emulatorEnv(shared.emu());
    const run = await runSvc(["config", "apply", "--yes"], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("[hook deploy.before] checking");
    expect(run.stderr).toContain("error PLATFORM_HOOK_FAILED: hook deploy.before failed: command 2 of 2 exited with code 9");
    const plan = await runSvc(["config", "plan", "--detailed-exitcode"], { cwd: dir, env });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("+ function.hello");
  }, 120_000);

  it("a hook's commands, and what they started, end when svc is killed with SIGKILL", async () => {
    const dir = project(`export default { functions: { ${HELLO} }, hooks: { deploy: { before: 'sleep 300 & echo "pids $$ $!"; wait' } } };\n`);
    let seen = "";
    const run = await runSvc(["config", "apply", "--yes"], {
      cwd: dir,
      env: emulatorEnv(shared.emu()),
      onStderr: (chunk, child) => {
        seen += chunk;
        if (/pids \d+ \d+\n/.test(seen)) child.kill("SIGKILL");
      },
    });
    expect(run.signal).toBe("SIGKILL");
    const pids = (/pids (\d+) (\d+)/.exec(run.stderr) ?? []).slice(1).map(Number);
    expect(pids).toHaveLength(2);
    await eventually(async () => pids.filter(isAlive), (alive) => alive.length === 0);
  }, 120_000);

  it("a failing deploy.after keeps the changes, warns and exits 7", async () => {
    const dir = project(`export default { functions: { ${HELLO} }, hooks: { deploy: { after: "exit 5" } } };\n`);
    const env = emulatorEnv(shared.emu());
    const run = await runSvc(["config", "apply", "--yes"], { cwd: dir, env });
    expect(run.code).toBe(7);
    expect(run.stdout).toContain("Apply complete: 1 created");
    expect(run.stderr).toContain("warning: hook deploy.after failed: its command exited with code 5");
    expect(run.stderr).toContain("The deploy itself succeeded and is kept; the command exits 7 because hook deploy.after failed.");
    const plan = await runSvc(["config", "plan", "--detailed-exitcode"], { cwd: dir, env });
    expect(plan.code).toBe(0);
  }, 120_000);

  it("deploy.after gets the result and the branch's variables; a shell hook gets them as variables with CI=1; svc prints no secret", async () => {
    const dir = project(
      [
        'import { writeFileSync } from "node:fs";',
        "export default {",
        `  functions: { ${HELLO} },`,
        "  hooks: { deploy: {",
        '    before: (ctx) => writeFileSync("before.json", JSON.stringify(ctx)),',
        '    after: [\'echo "url=$DATABASE_URL"\', \'env | grep -E "^(CI|SVC_[A-Z_]+)=" | grep -v SVC_API_KEY | sort > after-env.txt\', "touch after-ok"],',
        "  } },",
        "};",
        "",
      ].join("\n"),
    );
    const emu = shared.emu();
    const env = emulatorEnv(emu);
    const run = await runSvc(["config", "apply", "--yes"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const before = JSON.parse(readFileSync(join(dir, "before.json"), "utf8")) as Record<string, unknown>;
    expect(before).toEqual({
      event: "deploy",
      phase: "before",
      git: null,
      branch: { projectId: emu.projectId, id: emu.defaultBranchId, name: "main", created: false, isDefault: true, isProtected: false },
    });
    const vars = readFileSync(join(dir, "after-env.txt"), "utf8");
    expect(vars).toContain("CI=1\n");
    expect(vars).toContain("SVC_HOOK_EVENT=deploy\n");
    expect(vars).toContain("SVC_HOOK_PHASE=after\n");
    expect(vars).toContain(`SVC_BRANCH_ID=${emu.defaultBranchId}\n`);
    expect(vars).toContain("SVC_BRANCH=main\n");
    expect(existsSync(join(dir, "after-ok"))).toBe(true);
    expect(run.stderr).toContain("[hook deploy.after] url=(sensitive)");
    const url = await runSvc(["branch", "connection-string", "--pooled"], { cwd: dir, env });
    await expectNoConnectionSecrets(run, url.stdout.trim());
  }, 120_000);

  it("a deploy.after function gets the apply's result and the branch's variables", async () => {
    const dir = project(
      [
        'import { writeFileSync } from "node:fs";',
        `export default { functions: { hooked: { name: "Hooked", source: "./hello" } }, hooks: { deploy: { after: (ctx) => writeFileSync("after.json", JSON.stringify({ phase: ctx.phase, applied: ctx.result?.applied.map((a) => a.address), env: Object.keys(ctx.env ?? {}).sort(), branch: ctx.env?.SVC_BRANCH })) } } };`,
        "",
      ].join("\n"),
    );
    const run = await runSvc(["config", "apply", "--yes"], { cwd: dir, env: emulatorEnv(shared.emu()) });
    expect(run.code, run.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, "after.json"), "utf8")) as { phase: string; applied: string[]; env: string[]; branch: string };
    expect(after).toMatchObject({ phase: "after", applied: ["function.hooked"], branch: "main" });
    expect(after.env).toEqual(expect.arrayContaining(["DATABASE_URL", "DATABASE_URL_UNPOOLED", "SVC_BRANCH", "SVC_FUNCTION_HOOKED_URL"]));
  }, 120_000);

  it("never run in plan, validate or status", async () => {
    const touch = (name: string): string => `() => require("node:fs").writeFileSync("${name}", "")`;
    const phases = ["checkout", "create", "deploy"].map((e) => `${e}: { before: ${touch(`${e}-before`)}, after: ${touch(`${e}-after`)} }`).join(", ");
    const dir = project(`export default { functions: { ${HELLO} }, hooks: { ${phases} } };\n`);
    const env = emulatorEnv(shared.emu());
    for (const args of [["config", "plan"], ["config", "validate"], ["config", "status"]]) {
      const run = await runSvc(args, { cwd: dir, env });
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
    }
    for (const marker of ["checkout", "create", "deploy"].flatMap((e) => [`${e}-before`, `${e}-after`])) expect(existsSync(join(dir, marker)), marker).toBe(false);
  }, 120_000);
});
