/**
 * The preview jobs of the shipped workflows, run as written against an emulator with real
 * databases. docs/ci/svc.yml, for a policy that declares a database: the connection string it
 * hands to migrations is the declared database's, the same one `--write-env` writes; without a
 * policy the rule falls back to the platform's default database. docs/ci/previews.yml: the sync
 * migrates the new preview through its hook, and the comment it posts holds the plan and the
 * preview's schema diff.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { physicalName } from "../../../src/emulator/postgres/branch-databases.js";
import { currentDatabase } from "../../helpers/postgres.js";
import { ROOT, emptyDir, emulatorEnv, npxShim, runProcess, runSvc, useEmulatorProject } from "./harness.js";

const WORKFLOW = readFileSync(join(ROOT, "docs", "ci", "svc.yml"), "utf8");
const shared = useEmulatorProject({ emulator: { realDatabases: true } });

/** The `npx svc …` commands of the workflow's preview job, with `$PREVIEW` given. */
function previewJobCommands(preview: string): string[][] {
  const job = WORKFLOW.slice(WORKFLOW.indexOf("\n  preview:"), WORKFLOW.indexOf("\n  preview-cleanup:"));
  return [...job.matchAll(/npx svc ([^\n]+)/g)].map((m) => (m[1] ?? "").replaceAll('"$PREVIEW"', preview).trim().split(/\s+/));
}

describe("the preview job of docs/ci/svc.yml, for a policy that declares a database", () => {
  it("creates the preview branch and writes the connection string of the declared database to db-url", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "svc.ts"), 'export default {\n  roles: { app_owner: {} },\n  databases: { app: { owner: "app_owner" } },\n  branch: (t) => (t.isDefault ? {} : { ttl: "7d" }),\n};\n');
    const env = { ...emulatorEnv(shared.emu(), undefined), CI: "true" };
    const commands = previewJobCommands("pr-7");
    expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual(["branch create", "branch connection-string"]);
    for (const args of commands) {
      const run = await runSvc(args, { cwd: dir, env });
      expect(run.code, `svc ${args.join(" ")}\n${run.stderr}`).toBe(0);
    }
    const url = readFileSync(join(dir, "db-url"), "utf8").trim();
    const branches = await fetch(`${shared.emu().apiHost}/projects/${shared.emu().projectId}/branches`, { headers: { authorization: `Bearer ${shared.emu().apiKey}` } });
    const preview = ((await branches.json()) as { branches: { id: string; name: string }[] }).branches.find((b) => b.name === "pr-7");
    expect(await currentDatabase(url)).toBe(physicalName(preview?.id ?? "", "app"));

    const written = await runSvc(["branch", "connection-string", "--branch", "pr-7", "--write-env", ".env"], { cwd: dir, env });
    expect(written.code, written.stderr).toBe(0);
    expect(parse(readFileSync(join(dir, ".env"), "utf8"))["DATABASE_URL_DIRECT"]).toBe(url);
  }, 120_000);

  it("names the rule's choice on stderr, and without a policy a branch of several databases means neondb", async () => {
    const withPolicy = emptyDir();
    writeFileSync(join(withPolicy, "svc.ts"), 'export default { roles: { app_owner: {} }, databases: { app: { owner: "app_owner" } } };\n');
    const env = emulatorEnv(shared.emu());
    expect((await runSvc(["config", "apply", "--update-existing"], { cwd: withPolicy, env })).code).toBe(0);

    const declared = await runSvc(["branch", "connection-string"], { cwd: withPolicy, env });
    expect([declared.code, declared.stderr]).toEqual([0, expect.stringContaining("(database app, role app_owner)")]);
    const bare = await runSvc(["branch", "connection-string"], { cwd: emptyDir(), env });
    expect([bare.code, bare.stderr]).toEqual([0, expect.stringContaining("(database neondb, role neondb_owner)")]);
    const explicit = await runSvc(["branch", "connection-string", "--database", "neondb"], { cwd: withPolicy, env });
    expect(explicit.stderr).toContain("(database neondb, role neondb_owner)");
    expect(await currentDatabase(bare.stdout.trim())).toBe(physicalName(shared.emu().defaultBranchId, "neondb"));
  }, 120_000);
});

/** The shell script of the step named `name` in `workflow` (an inline `run:` or a `run: |` block). */
function stepScript(workflow: string, name: string): string {
  const step = new RegExp(`\\n( *)- name: ${name}\\n\\1  run: (\\|\\n((?:\\1    [^\\n]*\\n)+)|[^\\n]+)`).exec(workflow);
  if (step === null) throw new Error(`no step named ${name}`);
  const block = step[3];
  return block === undefined ? (step[2] ?? "") : block.replace(new RegExp(`^${step[1] ?? ""}    `, "gm"), "");
}

describe("the preview job of docs/ci/previews.yml", () => {
  const previews = readFileSync(join(ROOT, "docs", "ci", "previews.yml"), "utf8");

  it("syncs the pull request's preview, migrated by its hook, and writes the comment with its plan and schema diff, without ownership or comment lines", async () => {
    const dir = emptyDir();
    const migration = "CREATE TABLE notes (id bigint PRIMARY KEY); COMMENT ON TABLE notes IS E'what the\\nreview skips'";
    writeFileSync(join(dir, "svc.ts"), `export default {\n  branch: (t) => (t.isDefault ? {} : { ttl: "7d" }),\n  hooks: { create: { after: ${JSON.stringify(`psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -c "${migration}"`)} } },\n};\n`);
    const env = { ...emulatorEnv(shared.emu(), undefined), GITHUB_HEAD_REF: "feat/login", PATH: npxShim() };

    expect((await runProcess("git", ["init", "-q", "-b", "main"], { cwd: dir, env: {} })).code).toBe(0);
    for (const name of ["Sync the preview branch", "Plan the preview with its schema diff"]) {
      // The shell GitHub Actions runs a step's script in.
      const run = await runProcess("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", stepScript(previews, name)], { cwd: dir, env });
      expect(run.code, `${name}\n${run.stderr}`).toBe(0);
    }

    const html = micromark(readFileSync(join(dir, "preview.md"), "utf8"), { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    expect(html).toContain("<h3>svc plan: preview/feat/login</h3>");
    expect(html).toMatch(/<details><summary>Schema diff: \d+ added, 0 removed \(<code>preview\/feat\/login<\/code> against its parent <code>main<\/code>, database <code>neondb<\/code>\)<\/summary>/);
    expect(html).toContain("+CREATE TABLE public.notes (");
    expect(html).not.toMatch(/OWNER TO|COMMENT ON|review skips/);
  }, 120_000);
});
