import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { LIBRARY_VERSION } from "../../../src/version.js";
import { API_KEY, BIN, PLANTED_SECRET, ROOT, childEnv, emptyDir, emulatorEnv, ensureBuilt, projectDir, runProcess, runSvc, startTestEmulator } from "./harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startTestEmulator();
}, 180_000);

afterAll(async () => {
  await emu.close();
});

describe("help and version", () => {
  it("prints svc-config and the version", async () => {
    const run = await runSvc(["--version"], { cwd: emptyDir(), env: {} });
    expect(run).toMatchObject({ code: 0, stdout: `svc-config ${LIBRARY_VERSION}\n` });
  });

  it.each([
    [["config", "apply", "--help"], ["--update-existing", "SVC_API_KEY", "default: 8", "Examples:", "svc config apply plan.json --allow-protected"]],
    [["help", "branch"], ["create [options] <name>", "connection-string", "diff [options] [branch]"]],
    [["config", "plan", "--help"], ["--detailed-exitcode", "SVC_BRANCH_ID", "svc config plan --markdown", "--schema-diff"]],
    [["branch", "diff", "--help"], ["--base <ref>", "--database <name>", "(default: the branch's", "--markdown", "svc branch diff preview/pr-42"]],
  ])("documents %j", async (args, needles) => {
    const run = await runSvc(args, { cwd: emptyDir(), env: {} });
    expect(run.code).toBe(0);
    for (const needle of needles) expect(run.stdout).toContain(needle);
  });

  it.each(["config init", "config validate", "config status", "config pull", "config plan", "config apply", "deploy", "branch create", "branch delete", "branch connection-string", "branch diff", "branch sync", "branch cleanup", "db", "db claim", "emulator"])(
    "shows an example of svc %s in its help",
    async (command) => {
      const run = await runSvc([...command.split(" "), "--help"], { cwd: emptyDir(), env: {} });
      expect(run.code).toBe(0);
      // svc emulator keeps stdout for its variables, so its help goes to stderr.
      expect(command === "emulator" ? run.stderr : run.stdout).toMatch(new RegExp(`\\nExamples:\\n(  \\$ .*\\n)*  \\$ svc ${command}\\b`));
    },
  );
});

describe("svc config init", () => {
  it("scaffolds a policy that type-checks and validates offline, then refuses to overwrite it", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const run = await runSvc(["config", "init"], { cwd: dir, env: {} });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("wrote svc.ts\nwrote functions/hello/index.ts\nwrote svc-env.d.ts\nwrote tsconfig.json\n");
    expect(run.stderr).toContain("Next steps:");
    // process.env in svc.ts needs @types/node; the scaffold says so where a user looks.
    expect(run.stderr).toContain("  1. npm install --save-dev svc-config @types/node   (svc-config: the tarball or path the README's Install section names; @types/node: types the process.env svc.ts reads)");
    expect(readFileSync(join(dir, "svc-env.d.ts"), "utf8")).toContain("npm install --save-dev @types/node");

    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "svc-config"));
    symlinkSync(join(ROOT, "node_modules", "@types"), join(dir, "node_modules", "@types"));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023"], types: ["node"], noEmit: true, skipLibCheck: true }, include: ["**/*.ts"], exclude: ["node_modules"] }));
    const tsc = await runProcess(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, env: {} });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);

    const validate = await runSvc(["config", "validate"], { cwd: dir, env: {} });
    expect(validate).toMatchObject({ code: 0, stdout: "svc.ts is valid.\n" });

    const again = await runSvc(["config", "init"], { cwd: dir, env: {} });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("error CLI_FILE_EXISTS: Not overwriting svc.ts, functions/hello/index.ts, svc-env.d.ts");
    expect(again.stderr).toContain("hint: Pass --force");
    const forced = await runSvc(["config", "init", "--force", "--no-example"], { cwd: dir, env: {} });
    expect(forced.code).toBe(0);
    // An existing tsconfig.json is never overwritten, not even with --force.
    expect(forced.stdout).toBe("wrote svc.ts\nwrote svc-env.d.ts\n");
    // Both packages are installed now: no install step.
    expect(forced.stderr).not.toContain("npm install");
    expect(forced.stderr).toContain("  1. npx svc config validate");
    expect(readFileSync(join(dir, "svc.ts"), "utf8")).not.toContain("functions");
  });
});

describe("svc config validate", () => {
  it("lists every issue with its path, offline, and exits 1", async () => {
    const dir = projectDir();
    writeFileSync(
      join(dir, "svc.ts"),
      'import { defineConfig } from "svc-config/v1";\nexport default { buckets: { avatars: { acess: "private" } }, triggers: { t: { type: "schedule", function: "missing", cron: "not a cron" } } };\n',
    );
    const run = await runSvc(["config", "validate", "--json"], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as { formatVersion: number; command: string; valid: boolean; issues: { path: string }[] };
    expect(doc).toMatchObject({ formatVersion: 1, command: "validate", configPath: "svc.ts", valid: false });
    expect(doc.issues.map((i) => i.path)).toEqual(expect.arrayContaining(["buckets.avatars", "triggers.t.cron", "triggers.t.function"]));
    const text = await runSvc(["config", "validate"], { cwd: dir, env: {} });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^ {2}- buckets\.avatars: "acess" is not a known key here/m);
  });

  it("accepts the fixture project with its --env file and never prints the secrets it loaded", async () => {
    const run = await runSvc(["config", "validate", "--env", ".env.ci"], { cwd: projectDir(), env: {} });
    expect(run).toMatchObject({ code: 0, stdout: "svc.ts is valid.\n" });
    const missing = await runSvc(["config", "validate", "--env", ".env.missing"], { cwd: projectDir(), env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("error CLI_ENV_FILE_NOT_FOUND");
  });
});

describe("svc config status and pull", () => {
  it("shows the live branch as text and as JSON", async () => {
    const text = await runSvc(["config", "status"], { cwd: emptyDir(), env: emulatorEnv(emu) });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`  id        ${emu.projectId}`);
    expect(text.stdout).toMatch(/^ {2}default {3}yes$/m);
    const json = await runSvc(["config", "status", "--json"], { cwd: emptyDir(), env: emulatorEnv(emu) });
    expect(JSON.parse(json.stdout)).toMatchObject({ formatVersion: 1, command: "status", project: { id: emu.projectId }, branch: { id: emu.defaultBranchId } });
    expect(json.stdout + json.stderr).not.toContain(API_KEY);
  });

  it("prints the pulled policy on stdout and writes it only with confirmation", async () => {
    const dir = projectDir();
    const pulled = await runSvc(["config", "pull"], { cwd: dir, env: emulatorEnv(emu) });
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain("defineConfig(");
    expect(pulled.stderr).toMatch(/^Project /m);
    const refused = await runSvc(["config", "pull", "--write"], { cwd: dir, env: emulatorEnv(emu) });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("hint: Add --yes");
    const written = await runSvc(["config", "pull", "--write", "--yes"], { cwd: dir, env: emulatorEnv(emu) });
    expect(written.code).toBe(0);
    expect(readFileSync(join(dir, "svc.ts"), "utf8")).toBe(pulled.stdout);
  });
});

describe("svc branch", () => {
  it("creates, re-applies, connects to and deletes a preview branch", async () => {
    const dir = projectDir();
    const env = emulatorEnv(emu, undefined);
    const created = await runSvc(["branch", "create", "pr-7", "--env", ".env.ci"], { cwd: dir, env });
    expect(created.code).toBe(0);
    // What the new branch got, one line per change as the plan names it, then the counts.
    expect(created.stdout).toMatch(/^Created branch pr-7 \(br-[a-z0-9-]+\)\n {2}\+ branch\n {2}\+ bucket\.avatars\n {2}\+ function\.hello\n {2}\+ trigger\.hourly\nApply complete: 4 created, 0 updated, 0 deleted in /);
    expect(created.stdout + created.stderr).not.toContain(PLANTED_SECRET);

    const exists = await runSvc(["branch", "create", "pr-7", "--env", ".env.ci"], { cwd: dir, env });
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain("error PLATFORM_CONFLICT");
    expect(exists.stderr).toContain("--if-exists apply");

    const reapplied = await runSvc(["branch", "create", "pr-7", "--if-exists", "apply", "--json", "--env", ".env.ci"], { cwd: dir, env });
    expect(reapplied.code).toBe(0);
    expect(JSON.parse(reapplied.stdout)).toMatchObject({ formatVersion: 1, command: "branch create", branchName: "pr-7", created: false, result: { command: "apply" } });
    // The --env files are read once: the echo of the existing branch still names the file the project id came from.
    writeFileSync(join(dir, ".env.project"), `SVC_PROJECT_ID=${emu.projectId}\n`);
    const { SVC_PROJECT_ID: _fromFile, ...withoutProject } = env;
    const fromFile = await runSvc(["branch", "create", "pr-7", "--if-exists", "apply", "--env", ".env.project"], { cwd: dir, env: withoutProject });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stderr).toContain("SVC_PROJECT_ID from --env .env.project");

    const uri = await runSvc(["branch", "connection-string", "--branch", "pr-7"], { cwd: dir, env });
    expect(uri.code).toBe(0);
    expect(uri.stdout).toMatch(/^postgres(ql)?:\/\/[^\s]+\n$/);
    const toFile = await runSvc(["branch", "connection-string", "--branch", "pr-7", "--pooled", "--file", "db-url"], { cwd: dir, env });
    expect(toFile).toMatchObject({ code: 0, stdout: "" });
    expect(statSync(join(dir, "db-url")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "db-url"), "utf8")).toMatch(/-pooler\./);

    const unconfirmed = await runSvc(["branch", "delete", "pr-7"], { cwd: dir, env });
    expect(unconfirmed.code).toBe(4);
    expect(unconfirmed.stderr).toContain("hint: Add --yes");
    const deleted = await runSvc(["branch", "delete", "pr-7", "--yes"], { cwd: dir, env });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/^Deleted branch pr-7 \(br-/);
    const gone = await runSvc(["branch", "delete", "pr-7", "--yes"], { cwd: dir, env });
    expect(gone).toMatchObject({ code: 0, stdout: "Branch pr-7 does not exist; nothing to delete.\n" });
  });

  it("refuses to delete the default branch", async () => {
    const run = await runSvc(["branch", "delete", "main", "--yes"], { cwd: emptyDir(), env: emulatorEnv(emu, undefined) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error CLI_DELETE_REFUSED");
  });

  it("treats --branch on branch create as a usage error", async () => {
    const run = await runSvc(["branch", "create", "x", "--branch", "main"], { cwd: emptyDir(), env: emulatorEnv(emu) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error CLI_USAGE: unknown option '--branch'");
  });
});

/** Emulators the rows below started: killed after each row, so one a failed expectation left running never outlives the run. */
const emulatorChildren: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of emulatorChildren.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** `svc emulator --port 0` with a bare environment, once it has printed its variables. */
async function startEmulatorChild(): Promise<{ child: ReturnType<typeof spawn>; out: string }> {
  const child = spawn(process.execPath, [BIN, "emulator", "--port", "0"], { cwd: emptyDir(), env: childEnv({}), stdio: ["ignore", "pipe", "pipe"] });
  emulatorChildren.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("SVC_CLAIM_API_HOST=")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`emulator exited early with ${code}`)));
  });
  return { child, out };
}

describe("svc emulator", () => {
  it("writes its function directory under the test run's temporary directory when started with a bare environment", async () => {
    const { child } = await startEmulatorChild();
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    // Killed as a row kills one on purpose: its directory stays, inside the run's (removed at the end), not in /tmp.
    const mine = `svc-emulator-fn-${child.pid}-`;
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(mine))).toHaveLength(1);
    child.kill("SIGKILL");
    await exited;
    expect(tmpdir()).not.toBe("/tmp");
    expect(existsSync("/tmp") ? readdirSync("/tmp").filter((name) => name.startsWith(mine)) : []).toEqual([]);
    rmSync(join(tmpdir(), readdirSync(tmpdir()).find((name) => name.startsWith(mine)) ?? "-"), { recursive: true, force: true });
  });

  it("prints the five variables, serves, and exits 0 on SIGTERM", async () => {
    const { child, out } = await startEmulatorChild();
    expect(out.trim().split("\n").map((l) => l.split("=")[0])).toEqual(["SVC_API_HOST", "SVC_API_KEY", "SVC_PROJECT_ID", "SVC_BRANCH_ID", "SVC_CLAIM_API_HOST"]);
    const env = Object.fromEntries(out.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    const status = await runSvc(["config", "status", "--quiet"], { cwd: emptyDir(), env });
    expect(status.code).toBe(0);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(BIN)).toBe(true);
  });
});
