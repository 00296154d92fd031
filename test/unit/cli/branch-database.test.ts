import { describe, expect, it } from "vitest";
import { chooseBranchDatabase, declaredDatabasesOf } from "../../../src/cli/branch-database.js";

describe("chooseBranchDatabase: one rule for connection-string and --write-env", () => {
  const dbs = [
    { name: "appdb", owner_name: "app_owner" },
    { name: "neondb", owner_name: "neondb_owner" },
  ];
  it.each([
    { name: "an explicit database with its owner", databases: dbs, target: { database: "appdb" }, expected: { database: "appdb", role: "app_owner" } },
    { name: "an explicit role wins over the owner", databases: dbs, target: { database: "appdb", role: "reader" }, expected: { database: "appdb", role: "reader" } },
    { name: "the first declared database that exists", databases: dbs, target: { declaredDatabases: ["gone", "appdb"] }, expected: { database: "appdb", role: "app_owner" } },
    { name: "the only database", databases: [dbs[0]!], target: {}, expected: { database: "appdb", role: "app_owner" } },
    { name: "neondb among several", databases: dbs, target: {}, expected: { database: "neondb", role: "neondb_owner" } },
  ])("picks $name", ({ databases, target, expected }) => {
    expect(chooseBranchDatabase(databases, { branchName: "b", ...target })).toEqual(expected);
  });

  it.each([
    { name: "a missing explicit database", databases: dbs, target: { database: "nope" }, message: /has no database nope \(it has: appdb, neondb\)/ },
    { name: "several databases and no way to choose", databases: [dbs[0]!, { name: "other", owner_name: "o" }], target: {}, message: /has 2 databases \(appdb, other\)/ },
    { name: "no database at all", databases: [], target: {}, message: /has 0 databases \(\(none\)\)/ },
  ])("refuses $name with a usage error", ({ databases, target, message }) => {
    expect(() => chooseBranchDatabase(databases, { branchName: "b", ...target })).toThrow(message);
  });

  it("says what a refusal left undone when the caller names it", () => {
    expect(() => chooseBranchDatabase([], { branchName: "b", consequence: "the env file was not written" })).toThrow(/; the env file was not written\.$/);
  });
});

describe("declaredDatabasesOf", () => {
  it.each([
    [{}, []],
    [{ databases: { zeta: { owner: "a" }, alpha: { owner: "a" } } }, ["zeta", "alpha"]],
    [{ databases: { zeta: { owner: "a" }, api: { owner: "a" } }, dataApi: { database: "api" } }, ["api", "zeta"]],
    [{ databases: { zeta: { owner: "a" } }, dataApi: { database: "neondb" } }, ["zeta"]],
  ])("prefers the Data API's declared database, then svc.ts order: %j", (config, expected) => {
    expect(declaredDatabasesOf(config)).toEqual(expected);
  });
});
