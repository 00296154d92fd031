import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, liveWith, policyWith } from "../../helpers/engine-state.js";

const plan = (desired: ResolvedPolicy, live: LiveState) => diffState(desired, live, { now: NOW, functionTags: new Map(), allowDataLoss: false });
const builtin = (settings = {}) => ({ state: "enabled" as const, database: "neondb", authProvider: "builtin" as const, settings });

describe("auth", () => {
  it("creates the integration on the service database, after the control-plane changes", () => {
    const result = plan(policyWith({ auth: "enabled", branch: { protected: true } }), liveWith({ auth: { enabled: false } }));
    expect(result.changes.map((c) => c.change)).toMatchObject([
      { id: "update:branch" },
      { id: "create:auth", class: "additive", after: { enabled: true, database: "neondb" }, dependsOn: ["update:branch"] },
    ]);
  });

  it("plans nothing when the integration exists", () => {
    expect(plan(policyWith({ auth: "enabled" }), liveWith({ auth: { enabled: true } })).changes).toEqual([]);
  });

  it("never disables auth and warns when auth: false meets an integration", () => {
    const result = plan(policyWith({ authDeclaredOff: true }), liveWith({ auth: { enabled: true } }));
    expect(result.changes).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(["AUTH_FALSE_IGNORED"]);
  });

  it("blocks when the service database is missing", () => {
    const result = plan(policyWith({ auth: "enabled" }), liveWith({ databases: ["app"], auth: { enabled: false } }));
    expect(result.conflicts).toMatchObject([{ code: "SERVICE_DATABASE_MISSING", kind: "auth", field: "database" }]);
  });
});

describe("dataApi", () => {
  it("creates a built-in Data API after creating auth", () => {
    const result = plan(policyWith({ auth: "enabled", dataApi: builtin({ dbSchemas: ["api"] }) }), liveWith({ auth: { enabled: false } }));
    expect(result.changes.map((c) => c.change)).toMatchObject([
      { id: "create:auth" },
      { id: "create:dataApi", class: "additive", dependsOn: ["create:auth"], after: { enabled: true, settings: { dbSchemas: ["api"] } } },
    ]);
  });

  it("updates only declared settings that differ, comparing schema lists in order (an override)", () => {
    const live = liveWith({ dataApi: { enabled: true, database: "neondb", settings: { dbSchemas: ["public", "api"], dbMaxRows: 10, openapiMode: "disabled" } } });
    const result = plan(policyWith({ dataApi: builtin({ dbSchemas: ["api", "public"], dbMaxRows: 10 }) }), live);
    expect(result.changes[0]?.change).toMatchObject({ id: "update:dataApi", class: "override", fields: ["settings.dbSchemas"] });
    expect(result.changes[0]?.op).toEqual({ type: "data-api-update", database: "neondb" });
    expect(result.changes[0]?.planned).toEqual({ dbSchemas: ["api", "public"] });
  });

  it("orders a Data API settings update after the compute update", () => {
    const live = liveWith({ dataApi: { enabled: true, database: "neondb", settings: { dbMaxRows: 10 } } });
    const result = plan(policyWith({ dataApi: builtin({ dbMaxRows: 20 }), branch: { compute: { maxCu: 4 } } }), live);
    expect(result.changes.map((c) => [c.change.id, c.change.dependsOn])).toEqual([["update:compute", []], ["update:dataApi", ["update:compute"]]]);
  });

  it("deletes the Data API with dataApi: false (an override)", () => {
    const result = plan(policyWith({ dataApi: { state: "disabled" } }), liveWith({ dataApi: { enabled: true, database: "neondb", settings: null } }));
    expect(result.changes[0]?.change).toMatchObject({ id: "delete:dataApi", class: "override", after: null });
  });

  it.each([
    ["settings are unreported", { settings: null }, builtin({ dbMaxRows: 5 }), "DATA_API_SETTINGS_UNREPORTED"],
    ["external wiring meets an existing Data API", { settings: {} }, { ...builtin(), authProvider: "external" as const, jwksUrl: "https://idp.test/jwks" }, "DATA_API_WIRING_UNVERIFIED"],
  ])("warns when %s", (_label, liveApi, dataApi, code) => {
    const result = plan(policyWith({ dataApi }), liveWith({ dataApi: { enabled: true, database: "neondb", ...liveApi } }));
    expect(result.changes).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual([code]);
  });

  describe("settings.dbAnonRole", () => {
    const roles = [{ name: "neondb_owner", login: true, protected: false }, { name: "web_anon", login: false, protected: false }];

    it.each([
      ["a role on the branch", "web_anon", [] as { name: string; login: boolean }[]],
      ["a role the policy declares", "api_anon", [{ name: "api_anon", login: false }]],
      ["the Data API's default role", "anonymous", []],
    ])("accepts %s", (_label, role, declared) => {
      const result = plan(policyWith({ roles: declared, dataApi: builtin({ dbAnonRole: role }) }), liveWith({ roles }));
      expect(result.conflicts).toEqual([]);
      expect(result.changes.map((c) => c.change.id)).toContain("create:dataApi");
    });

    it("blocks a role neither on the branch nor declared, naming the field, the close name and what to do", () => {
      const result = plan(policyWith({ dataApi: builtin({ dbAnonRole: "web_anno" }) }), liveWith({ roles }));
      expect(result.changes).toEqual([]);
      expect(result.conflicts).toEqual([
        {
          kind: "dataApi", identifier: "main", field: "settings.dbAnonRole", current: null, desired: "web_anno", blocking: true, code: "UNKNOWN_ROLE",
          reason: 'dataApi.settings.dbAnonRole names role web_anno, which is neither on the branch nor declared under roles (did you mean "web_anon"?); declare the role under roles, or name one the branch has (the Data API\'s default is anonymous)',
        },
      ]);
    });

    it("blocks the change of an existing Data API's role to an unknown one, showing the role it has", () => {
      const live = liveWith({ roles, dataApi: { enabled: true, database: "neondb", settings: { dbAnonRole: "web_anon" } } });
      const result = plan(policyWith({ dataApi: builtin({ dbAnonRole: "nobody" }) }), live);
      expect(result.conflicts).toMatchObject([{ code: "UNKNOWN_ROLE", current: "web_anon", desired: "nobody" }]);
      expect(result.conflicts[0]?.reason).not.toContain("did you mean");
    });
  });

  it("blocks creating an external Data API without a JWKS URL", () => {
    const result = plan(policyWith({ dataApi: { ...builtin(), authProvider: "external" } }), liveWith());
    expect(result.conflicts).toMatchObject([{ code: "JWKS_URL_REQUIRED", field: "jwksUrl" }]);
  });

  it("blocks a Data API on a missing database", () => {
    const result = plan(policyWith({ dataApi: { ...builtin(), database: "app", authProvider: "external", jwksUrl: "https://x.test" } }), liveWith());
    expect(result.conflicts).toMatchObject([{ code: "SERVICE_DATABASE_MISSING", kind: "dataApi" }]);
  });
});
