import { describe, expect, it } from "vitest";
import { resolvePolicy, validatePolicy } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const main = { name: "main", exists: true, isDefault: true };

describe("roles", () => {
  it.each(["app", "App_Owner", "a".repeat(63), "ünï"])("accepts the name %j", (name) => {
    expect(() => validatePolicy({ roles: { [name]: {} } })).not.toThrow();
  });

  it.each([
    ["pg_monitor", "roles.pg_monitor", 'starts with "pg_"'],
    ["r".repeat(64), `roles.${"r".repeat(64)}`, "must be 1 to 63 bytes long (PostgreSQL's identifier limit; got 64)"],
    ["é".repeat(32), `roles["${"é".repeat(32)}"]`, "got 64"],
    ["..", 'roles[".."]', "is a dot segment"],
    ["tab\tname", 'roles["tab\\tname"]', "control character"],
    ["public", "roles.public", "is reserved by PostgreSQL"],
    ["NONE", "roles.NONE", "is reserved by PostgreSQL"],
    ["current_user", "roles.current_user", "is reserved by PostgreSQL"],
    ["session_user", "roles.session_user", "is reserved by PostgreSQL"],
    ["admin ", 'roles["admin "]', "begins or ends with whitespace"],
  ])("rejects the name %j", (name, path, why) => {
    expect(issueAt(issuesOf(() => validatePolicy({ roles: { [name]: {} } })), path).message).toContain(why);
  });

  it.each([
    [{ login: "no" }, "roles.app.login"],
    [{ password: "secret" }, "roles.app"],
    [true, "roles.app"],
  ])("rejects the options %j", (def, path) => {
    expect(issueAt(issuesOf(() => validatePolicy({ roles: { app: def } })), path)).toBeDefined();
  });
});

describe("databases", () => {
  it.each([
    [{ appdb: {} }, "databases.appdb.owner", "is required"],
    [{ appdb: { owner: "pg_read_all_data" } }, "databases.appdb.owner", 'starts with "pg_"'],
    [{ template1: { owner: "app" } }, "databases.template1", "PostgreSQL keeps for itself"],
    [{ postgres: { owner: "app" } }, "databases.postgres", "PostgreSQL keeps for itself"],
    [{ appdb: { owner: "app", size: 1 } }, "databases.appdb", "not a known key"],
    [{ appdb: { owner: "public" } }, "databases.appdb.owner", "is reserved by PostgreSQL"],
    [{ " appdb": { owner: "app" } }, 'databases[" appdb"]', "begins or ends with whitespace"],
  ])("rejects %j", (databases, path, why) => {
    expect(issueAt(issuesOf(() => validatePolicy({ databases })), path).message).toContain(why);
  });
});

describe("resolving roles, databases and their prune flags", () => {
  it("sorts them by name and fills login", () => {
    const resolved = resolvePolicy({ roles: { b: {}, a: { login: false } }, databases: { z: { owner: "a" }, m: { owner: "b" } } }, main);
    expect(resolved.roles).toEqual([{ name: "a", login: false }, { name: "b", login: true }]);
    expect(resolved.databases).toEqual([{ name: "m", owner: "b" }, { name: "z", owner: "a" }]);
  });

  it.each([
    [true, false, false],
    [{ roles: true }, true, false],
    [{ databases: true }, false, true],
  ])("prune %j sets roles %s and databases %s (prune: true never names them)", (prune, roles, databases) => {
    const resolved = resolvePolicy({ prune }, main);
    expect([resolved.prune.roles, resolved.prune.databases]).toEqual([roles, databases]);
  });
});
