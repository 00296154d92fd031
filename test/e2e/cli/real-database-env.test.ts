/**
 * Roles and databases declared in svc.ts, applied with the real bin to an emulator whose branches
 * have real PostgreSQL databases (`realDatabases`), then used through the DATABASE_URL that
 * `--write-env` wrote, with psql.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "dotenv";
import { beforeAll, describe, expect, it } from "vitest";
import { psql, requirePsql } from "../../helpers/psql.js";
import { physicalName } from "../../../src/emulator/postgres/branch-databases.js";
import { emulatorEnv, runSvc, useEmulatorProject } from "./harness.js";

beforeAll(requirePsql);
const shared = useEmulatorProject({ emulator: { realDatabases: true } });

describe("a database and a role declared in svc.ts, on real PostgreSQL", () => {
  it("are created by apply, and the written DATABASE_URL connects as that role to that database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-real-db-"));
    writeFileSync(join(dir, "svc.ts"), 'export default {\n  roles: { app_owner: {} },\n  databases: { appdb: { owner: "app_owner" } },\n};\n');
    const emu = shared.emu();
    const env = emulatorEnv(emu);
    const applied = await runSvc(["config", "apply", "--write-env", ".env"], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("+ role.app_owner");
    expect(applied.stdout).toContain("+ database.appdb");
    expect(applied.stderr).toContain("(database appdb, role app_owner)");

    const vars = parse(readFileSync(join(dir, ".env"), "utf8"));
    const url = vars["DATABASE_URL"] ?? "";
    for (const out of [applied.stdout, applied.stderr]) expect(out).not.toContain(new URL(url).password);
    expect(await psql(url, "SELECT current_user || ' ' || current_database()")).toBe(`${physicalName(emu.defaultBranchId, "app_owner")} ${physicalName(emu.defaultBranchId, "appdb")}`);
    await psql(url, "CREATE TABLE notes (note text); INSERT INTO notes VALUES ('from svc.ts')");
    expect(await psql(vars["DATABASE_URL_DIRECT"] ?? "", "SELECT note FROM notes")).toBe("from svc.ts");

    const again = await runSvc(["config", "plan", "--detailed-exitcode"], { cwd: dir, env });
    expect(again.code).toBe(0);
  }, 120_000);
});
