/** Roles' and databases' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { enableDataApi } from "../../../src/emulator/engine/data-api.js";
import { connectionTarget, createDatabase, createRole, deleteDatabase, deleteRole, findDatabase, findRole, resetRolePassword, revealRolePassword, updateDatabase, type BranchScope } from "../../../src/emulator/engine/roles-databases.js";
import { refusal, unitWorld } from "./unit-world.js";

describe("roles and databases", () => {
  let s: BranchScope;
  beforeEach(() => {
    const w = unitWorld();
    s = { world: w.world, project: w.project, branch: w.main, shouldFail: () => false };
  });

  it("creates a role with a password and one apply_config; a second role of that name is refused", () => {
    const { record, operations } = createRole(s, { name: "app", noLogin: true });
    expect([record.noLogin, record.password.length, operations.map((o) => o.action), findRole(s.branch, "app")]).toEqual([true, 24, ["apply_config"], record]);
    expect(refusal(() => createRole(s, { name: "app" }))).toEqual(["conflict", "already_exists"]);
  });

  it("refuses to delete a role that owns a database, and deletes it once the database is gone", () => {
    const role = createRole(s, { name: "app" }).record;
    const db = createDatabase(s, { name: "appdb", ownerName: "app" }).record;
    expect(refusal(() => deleteRole(s, role))).toEqual(["conflict", "in_use"]);
    deleteDatabase(s, db);
    deleteRole(s, role);
    expect([refusal(() => findRole(s.branch, "app")), refusal(() => findDatabase(s.branch, "appdb"))]).toEqual([
      ["not_found", "not_found"],
      ["not_found", "not_found"],
    ]);
  });

  it("resets a password to a new one, and reveals it only when the project stores passwords", () => {
    const role = createRole(s, { name: "app" }).record;
    const before = role.password;
    resetRolePassword(s, role);
    expect(role.password).not.toBe(before);
    s.project.storePasswords = true;
    expect(revealRolePassword(s.project, role)).toBe(role.password);
    s.project.storePasswords = false;
    expect(refusal(() => revealRolePassword(s.project, role))).toEqual(["precondition_failed", "passwords_not_stored"]);
  });

  it("creates a database only for an existing owner and a free name", () => {
    expect(refusal(() => createDatabase(s, { name: "appdb", ownerName: "nobody" }))).toEqual(["not_found", "not_found"]);
    expect(refusal(() => createDatabase(s, { name: "neondb", ownerName: "neondb_owner" }))).toEqual(["conflict", "already_exists"]);
  });

  it("renames a database under its new key and changes its owner; a taken name or unknown owner is refused", () => {
    createRole(s, { name: "app" });
    const db = createDatabase(s, { name: "appdb", ownerName: "neondb_owner" }).record;
    expect(refusal(() => updateDatabase(s, db, { name: "neondb" }))).toEqual(["conflict", "already_exists"]);
    expect(refusal(() => updateDatabase(s, db, { ownerName: "nobody" }))).toEqual(["not_found", "not_found"]);
    updateDatabase(s, db, { name: "renamed", ownerName: "app" });
    expect([s.branch.databases.has("appdb"), findDatabase(s.branch, "renamed").ownerName]).toEqual([false, "app"]);
  });

  it("deletes a database with its Data API", () => {
    enableDataApi(s.branch, "neondb", {}, 0);
    deleteDatabase(s, findDatabase(s.branch, "neondb"));
    expect(s.branch.dataApi.has("neondb")).toBe(false);
  });

  it("resolves a connection URI's branch, read_write endpoint and role, and refuses what the branch lacks", () => {
    const target = connectionTarget(s.world, s.project, { role_name: "neondb_owner", database_name: "neondb" });
    expect([target.branch, target.endpoint.type, target.role.name]).toEqual([s.branch, "read_write", "neondb_owner"]);
    expect(refusal(() => connectionTarget(s.world, s.project, { role_name: "nobody", database_name: "neondb" }))).toEqual(["not_found", "not_found"]);
    expect(refusal(() => connectionTarget(s.world, s.project, { role_name: "neondb_owner", database_name: "nodb" }))).toEqual(["not_found", "not_found"]);
    expect(refusal(() => connectionTarget(s.world, s.project, { role_name: "neondb_owner", database_name: "neondb", branch_id: "br-none" }))).toEqual(["not_found", "not_found"]);
  });

  it("refuses every change while an operation holds the project lock", () => {
    const slow = unitWorld({ opRunMs: 1_000 });
    const locked: BranchScope = { world: slow.world, project: slow.project, branch: slow.main, shouldFail: () => false };
    createRole(locked, { name: "app" });
    expect(refusal(() => createDatabase(locked, { name: "appdb", ownerName: "app" }))).toEqual(["locked", "locked"]);
  });
});
