import { describe, expect, it } from "vitest";
import { validatePolicy } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const AUTH_NEEDED = 'the Data API uses the built-in auth provider; set `auth: true` or use `authProvider: "external"`';

describe("dataApi: valid forms", () => {
  it.each<[string, Record<string, unknown>]>([
    ["true with auth on", { auth: true, dataApi: true }],
    ["false without auth", { dataApi: false }],
    ["{ enabled: false } without auth", { dataApi: { enabled: false } }],
    ["{} with auth {}", { auth: {}, dataApi: {} }],
    ["builtin explicitly with auth { enabled: true }", { auth: { enabled: true }, dataApi: { authProvider: "builtin" } }],
    ["external without auth", { dataApi: { authProvider: "external", jwksUrl: "https://id.example.com/.well-known/jwks.json", providerName: "Clerk", jwtAudience: "api" } }],
    ["external without wiring fields", { dataApi: { authProvider: "external" } }],
    ["a database name of 63 characters", { auth: true, dataApi: { database: "d".repeat(63) } }],
    ["every setting", {
      auth: true,
      dataApi: {
        settings: {
          dbAggregatesEnabled: true, dbAnonRole: "anon", dbExtraSearchPath: "", dbMaxRows: 1, dbSchemas: ["api", "public"],
          jwtRoleClaimKey: ".role", jwtCacheMaxLifetime: 0, openapiMode: "disabled", serverCorsAllowedOrigins: "*", serverTimingEnabled: false,
        },
      },
    }],
    ["a setting whose value is undefined", { auth: true, dataApi: { settings: { dbMaxRows: undefined } } }],
  ])("accepts %s", (_label, policy) => {
    expect(() => validatePolicy(policy)).not.toThrow();
  });
});

describe("dataApi: invalid forms", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["true without auth", { dataApi: true }, "auth", AUTH_NEEDED],
    ["builtin with auth false", { auth: false, dataApi: { authProvider: "builtin" } }, "auth", AUTH_NEEDED],
    ["the default provider with auth { enabled: false }", { auth: { enabled: false }, dataApi: {} }, "auth", AUTH_NEEDED],
    ["disabled with another field", { dataApi: { enabled: false, database: "app" } }, "dataApi.database", "has no effect when the Data API is disabled"],
    ["disabled with settings", { dataApi: { enabled: false, settings: {} } }, "dataApi.settings", "has no effect when the Data API is disabled"],
    ["jwksUrl with builtin", { auth: true, dataApi: { jwksUrl: "https://x.example.com/jwks" } }, "dataApi.jwksUrl", 'set `authProvider: "external"` to use `jwksUrl`'],
    ["providerName with builtin", { auth: true, dataApi: { authProvider: "builtin", providerName: "X" } }, "dataApi.providerName", 'set `authProvider: "external"` to use `providerName`'],
    ["jwtAudience with builtin", { auth: true, dataApi: { jwtAudience: "aud" } }, "dataApi.jwtAudience", 'set `authProvider: "external"` to use `jwtAudience`'],
    ["a relative jwksUrl", { dataApi: { authProvider: "external", jwksUrl: "/jwks.json" } }, "dataApi.jwksUrl", "must be an absolute http(s) URL"],
    ["an ftp jwksUrl", { dataApi: { authProvider: "external", jwksUrl: "ftp://x.example.com/jwks" } }, "dataApi.jwksUrl", "must be an absolute http(s) URL"],
    ["an empty providerName", { dataApi: { authProvider: "external", providerName: "" } }, "dataApi.providerName", "must be 1 to 255 characters long"],
    ["a long providerName", { dataApi: { authProvider: "external", providerName: "p".repeat(256) } }, "dataApi.providerName", "must be 1 to 255 characters long"],
    ["an empty jwtAudience", { dataApi: { authProvider: "external", jwtAudience: "" } }, "dataApi.jwtAudience", "must not be empty"],
    ["an unknown provider", { auth: true, dataApi: { authProvider: "neon_auth" } }, "dataApi.authProvider", 'must be "builtin" or "external" (got "neon_auth")'],
    ["an empty database", { auth: true, dataApi: { database: "" } }, "dataApi.database", "must be 1 to 63 characters long"],
    ["a 64-character database", { auth: true, dataApi: { database: "d".repeat(64) } }, "dataApi.database", "must be 1 to 63 characters long"],
    ["a string", { dataApi: "on" }, "dataApi", "must be true, false or a Data API definition (got a string)"],
  ])("rejects %s", (_label, policy, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(policy)), path).message).toBe(message);
  });
});

describe("dataApi.settings", () => {
  it.each<[string, unknown, string]>([
    ["dbMaxRows", 0, "must be an integer ≥ 1 (got 0)"],
    ["dbMaxRows", 2.5, "must be an integer ≥ 1 (got 2.5)"],
    ["jwtCacheMaxLifetime", -1, "must be an integer ≥ 0 (got -1)"],
    ["dbAnonRole", "", "must not be empty"],
    ["jwtRoleClaimKey", "", "must not be empty"],
    ["openapiMode", "follow-privileges", 'must be "ignore-privileges" or "disabled" (got "follow-privileges")'],
    ["dbAggregatesEnabled", "true", "must be true or false (got a string)"],
    ["serverCorsAllowedOrigins", ["*"], "must be a string (got an array)"],
    ["dbSchemas", [], "must list at least one schema"],
    ["dbSchemas", "api", "must be an array (got a string)"],
  ])("rejects %s = %j", (key, value, message) => {
    const policy = { auth: true, dataApi: { settings: { [key]: value } } };
    expect(issueAt(issuesOf(() => validatePolicy(policy)), `dataApi.settings.${key}`).message).toBe(message);
  });

  it("rejects an empty schema name on its index", () => {
    const policy = { auth: true, dataApi: { settings: { dbSchemas: ["api", ""] } } };
    expect(issueAt(issuesOf(() => validatePolicy(policy)), "dataApi.settings.dbSchemas[1]").message).toBe("must not be empty");
  });

  it("rejects a schema listed twice, naming both indexes", () => {
    const policy = { auth: true, dataApi: { settings: { dbSchemas: ["api", "public", "api"] } } };
    expect(issueAt(issuesOf(() => validatePolicy(policy)), "dataApi.settings.dbSchemas[2]").message).toBe(
      'schema "api" is listed twice: dbSchemas[0] and dbSchemas[2]',
    );
  });

  it("rejects the create-only wire flags as unknown keys", () => {
    const policy = { auth: true, dataApi: { settings: { add_default_grants: true } } };
    expect(issueAt(issuesOf(() => validatePolicy(policy)), "dataApi.settings").message).toBe('"add_default_grants" is not a known key here');
  });
});
