import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, liveWith, policyWith } from "../../helpers/engine-state.js";

const plan = (desired: ResolvedPolicy, live: LiveState, allowDataLoss = false) => diffState(desired, live, { now: NOW, functionTags: new Map(), allowDataLoss });
const NO_PRUNE = { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false };

/** The default branch as the platform makes it: `neondb` owned by `neondb_owner`. */
function branchWith(extra: { roles?: LiveState["roles"]; owners?: Record<string, string>; parentRoles?: string[]; parentDatabases?: string[] } = {}): LiveState {
  const owners = { neondb: "neondb_owner", ...extra.owners };
  return liveWith({
    databases: Object.keys(owners).sort(),
    roles: [{ name: "neondb_owner", login: true, protected: false }, ...(extra.roles ?? [])],
    databaseOwners: new Map(Object.entries(owners)),
    ...(extra.parentRoles === undefined ? {} : { parentRoles: extra.parentRoles, parentDatabases: extra.parentDatabases ?? [] }),
  });
}

const ids = (result: ReturnType<typeof plan>) => result.changes.map((c) => c.change.id);

describe("roles", () => {
  it.each([
    { name: "creates an absent role that can log in (additive)", role: { name: "app", login: true }, live: branchWith(), id: "create:role.app", after: { login: true } },
    { name: "creates a NOLOGIN role", role: { name: "grp", login: false }, live: branchWith(), id: "create:role.grp", after: { login: false } },
  ])("$name", ({ role, live, id, after }) => {
    const result = plan(policyWith({ roles: [role] }), live);
    expect(result.changes.map((c) => c.change)).toMatchObject([{ id, class: "additive", before: null, after }]);
    expect(result.changes[0]?.op).toEqual({ type: "role-create", name: role.name });
    expect(result.changes[0]?.planned).toEqual({ login: role.login });
  });

  it("recognises a role already on the branch (inherited or not): no change", () => {
    const result = plan(policyWith({ roles: [{ name: "neondb_owner", login: true }] }), branchWith());
    expect(result.changes).toEqual([]);
    expect(result.conflicts).toEqual([]);
  });

  it("blocks a login change: the platform cannot alter an existing role", () => {
    const result = plan(policyWith({ roles: [{ name: "grp", login: true }] }), branchWith({ roles: [{ name: "grp", login: false, protected: false }] }));
    expect(result.conflicts).toMatchObject([{ code: "ROLE_LOGIN_IMMUTABLE", kind: "role", identifier: "grp", current: false, desired: true, blocking: true }]);
    expect(result.changes).toEqual([]);
  });

  it("lists undeclared roles as unmanaged without prune.roles, and says nothing of them when roles are not managed", () => {
    const live = branchWith({ roles: [{ name: "extra", login: true, protected: false }] });
    expect(plan(policyWith({ roles: [{ name: "neondb_owner", login: true }] }), live).unmanaged.map((u) => u.address)).toEqual(["role.extra"]);
    expect(plan(policyWith(), live).unmanaged).toEqual([]);
  });

  it.each([
    { name: "deletes an undeclared branch-local role (override)", extra: { name: "old", login: true, protected: false }, parent: ["neondb_owner"], change: "delete:role.old", unmanaged: [] as string[] },
    { name: "never prunes a protected role", extra: { name: "system", login: true, protected: true }, parent: ["neondb_owner"], change: undefined, unmanaged: ["role.system"] },
    { name: "never prunes a role the parent also has (inherited)", extra: { name: "shared", login: true, protected: false }, parent: ["neondb_owner", "shared"], change: undefined, unmanaged: ["role.shared"] },
  ])("prune.roles: $name", ({ extra, parent, change, unmanaged }) => {
    const result = plan(policyWith({ roles: [], prune: { ...NO_PRUNE, roles: true } }), branchWith({ roles: [extra], parentRoles: parent }));
    expect(ids(result)).toEqual(change === undefined ? [] : [change]);
    if (change !== undefined) expect(result.changes[0]?.change.class).toBe("override");
    expect(result.unmanaged.filter((u) => u.address !== "role.neondb_owner").map((u) => u.address)).toEqual(unmanaged);
  });

  it("blocks pruning a role that still owns a database, and deletes it after its database goes", () => {
    const live = branchWith({ roles: [{ name: "old", login: true, protected: false }], owners: { olddb: "old" }, parentRoles: ["neondb_owner"], parentDatabases: ["neondb"] });
    const keepDb = plan(policyWith({ databases: [{ name: "olddb", owner: "old" }], prune: { ...NO_PRUNE, roles: true } }), live);
    expect(keepDb.conflicts).toMatchObject([{ code: "STILL_REFERENCED", kind: "role", identifier: "old", current: ["database olddb"] }]);

    const dropBoth = plan(policyWith({ prune: { ...NO_PRUNE, roles: true, databases: true } }), live, true);
    expect(ids(dropBoth)).toEqual(["delete:database.olddb", "delete:role.old"]);
    expect(dropBoth.changes[1]?.change.dependsOn).toEqual(["delete:database.olddb"]);
  });
});

describe("databases", () => {
  it("creates an absent database after its declared owner", () => {
    const result = plan(policyWith({ roles: [{ name: "app", login: true }], databases: [{ name: "appdb", owner: "app" }] }), branchWith());
    expect(ids(result)).toEqual(["create:role.app", "create:database.appdb"]);
    expect(result.changes[1]?.change).toMatchObject({ class: "additive", after: { owner: "app" }, dependsOn: ["create:role.app"] });
    expect(result.changes[1]?.op).toEqual({ type: "database-create", name: "appdb" });
    expect(result.changes[1]?.planned).toEqual({ owner: "app" });
  });

  it("gives a database with another owner back to the declared one (override, owner field only)", () => {
    const live = branchWith({ roles: [{ name: "app", login: true, protected: false }], owners: { appdb: "neondb_owner" } });
    const result = plan(policyWith({ databases: [{ name: "appdb", owner: "app" }] }), live);
    expect(result.changes.map((c) => c.change)).toMatchObject([{ id: "update:database.appdb", class: "override", fields: ["owner"], before: { owner: "neondb_owner" }, after: { owner: "app" } }]);
  });

  it("blocks an owner that is neither on the branch nor declared", () => {
    const result = plan(policyWith({ databases: [{ name: "appdb", owner: "ghost" }] }), branchWith());
    expect(result.conflicts).toMatchObject([{ code: "UNKNOWN_ROLE", kind: "database", identifier: "appdb", field: "owner", desired: "ghost" }]);
    expect(result.changes).toEqual([]);
  });

  it("says which declared or branch role a mistyped owner is close to, and shows an existing database's owner", () => {
    const live = branchWith({ owners: { appdb: "neondb_owner" } });
    const result = plan(policyWith({ roles: [{ name: "app_owner", login: true }], databases: [{ name: "appdb", owner: "app_ownr" }, { name: "newdb", owner: "neondb_ownr" }] }), live);
    expect(result.conflicts).toMatchObject([
      { identifier: "appdb", current: "neondb_owner", desired: "app_ownr", reason: 'database appdb is to be owned by role app_ownr, which is neither on the branch nor declared under roles (did you mean "app_owner"?); declare the role under roles, or name one the branch has' },
      { identifier: "newdb", current: null, desired: "neondb_ownr", reason: expect.stringContaining('(did you mean "neondb_owner"?)') },
    ]);
  });

  it.each([
    { name: "a delete is destructive with allowDataLoss", allowDataLoss: true, change: { id: "delete:database.olddb", class: "destructive" }, conflict: undefined },
    { name: "without allowDataLoss it is the blocking DATABASE_DELETE_NEEDS_DATA_LOSS", allowDataLoss: false, change: undefined, conflict: "DATABASE_DELETE_NEEDS_DATA_LOSS" },
  ])("prune.databases: $name", ({ allowDataLoss, change, conflict }) => {
    const live = branchWith({ owners: { olddb: "neondb_owner" }, parentRoles: ["neondb_owner"], parentDatabases: ["neondb"] });
    const result = plan(policyWith({ prune: { ...NO_PRUNE, databases: true } }), live, allowDataLoss);
    expect(result.changes.map((c) => c.change)).toMatchObject(change === undefined ? [] : [change]);
    expect(result.conflicts.map((c) => c.code)).toEqual(conflict === undefined ? [] : [conflict]);
    expect(result.unmanaged).toMatchObject([{ address: "database.neondb", inherited: true }]);
  });

  it("never prunes the database the Data API uses", () => {
    const live = { ...branchWith({ owners: { api: "neondb_owner" } }), dataApi: { enabled: true, database: "api", settings: null } };
    const desired = policyWith({ dataApi: { state: "enabled", database: "api", authProvider: "external", settings: {} }, prune: { ...NO_PRUNE, databases: true } });
    const result = plan(desired, live, true);
    expect(result.conflicts).toMatchObject([{ code: "STILL_REFERENCED", kind: "database", identifier: "api" }]);
    expect(ids(result)).toContain("delete:database.neondb");
  });

  it("lets the Data API use a database this plan creates, after it is created", () => {
    const desired = policyWith({ databases: [{ name: "api", owner: "neondb_owner" }], dataApi: { state: "enabled", database: "api", authProvider: "external", jwksUrl: "https://id.example.test/jwks", settings: {} } });
    const result = plan(desired, branchWith());
    expect(ids(result)).toEqual(["create:database.api", "create:dataApi"]);
    expect(result.changes[1]?.change.dependsOn).toEqual(["create:database.api"]);
  });

  it("names the declared databases when the Data API's is missing (a claimed project has no neondb)", () => {
    const live = liveWith({ databases: ["svc_claim_0123"], roles: [{ name: "svc_claim_0123", login: true, protected: false }], databaseOwners: new Map([["svc_claim_0123", "svc_claim_0123"]]) });
    const result = plan(policyWith({ dataApi: { state: "enabled", database: "neondb", authProvider: "external", jwksUrl: "https://id.example.test/jwks", settings: {} } }), live);
    expect(result.conflicts).toMatchObject([{ code: "SERVICE_DATABASE_MISSING", current: ["svc_claim_0123"], desired: "neondb" }]);
    expect(result.conflicts[0]?.reason).toContain("set dataApi.database to one of them, or declare it under databases");
  });
});
