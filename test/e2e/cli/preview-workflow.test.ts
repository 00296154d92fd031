/**
 * The preview job of the shipped workflow (docs/ci/svc.yml), run as written against an emulator
 * with real databases, for a policy that declares a database: the connection string it hands to
 * migrations is the declared database's, the same one `--write-env` writes; without a policy the
 * rule falls back to the platform's default database.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";
import { describe, expect, it } from "vitest";
import { physicalName } from "../../../src/emulator/postgres/branch-databases.js";
import { currentDatabase } from "../../helpers/postgres.js";
import { ROOT, emptyDir, emulatorEnv, runSvc, useEmulatorProject } from "./harness.js";

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
