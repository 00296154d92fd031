import { describe, expect, expectTypeOf, it } from "vitest";
import full from "../../../fixtures/policies/full.js";
import invalid, { expectedIssues } from "../../../fixtures/policies/invalid.js";
import minimal from "../../../fixtures/policies/minimal.js";
import { rememberPolicyFile } from "../../../src/config/policy-origin.js";
import {
  ErrorCode,
  PlatformError,
  defineConfig,
  isPlatformError,
  resolvePolicy,
  validatePolicy,
  type BranchTarget,
  type PolicyConfig,
  type ResolvedPolicy,
} from "../../../src/v1.js";
import { issuesOf, validationErrorOf } from "./validation-helpers.js";

const main: BranchTarget = { name: "main", id: "br-main", exists: true, isDefault: true, isProtected: false };
const preview: BranchTarget = { name: "feature-x", id: "br-x", exists: true, isDefault: false, parentId: "br-main" };
const baseDir = "/repo";

describe("resolvePolicy: fixtures", () => {
  it("resolves the minimal policy with every default filled", () => {
    expect(resolvePolicy(defineConfig(minimal), preview, { baseDir })).toEqual({
      target: preview,
      baseDir: "/repo",
      auth: "unmanaged",
      authDeclaredOff: false,
      dataApi: { state: "unmanaged" },
      aiGateway: false,
      buckets: [],
      functions: [
        {
          slug: "hello",
          name: "Hello",
          sourcePath: "/repo/functions/hello",
          env: {},
          runtime: "nodejs24",
          bundler: "esbuild",
          sourcemap: false,
          customDomains: [],
        },
      ],
      triggers: [],
      roles: [],
      databases: [],
      prune: { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false },
      pruneStated: { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false },
      branch: {},
      deprecatedKeys: [],
    });
  });

  it("resolves the full policy on the default branch", () => {
    const resolved = resolvePolicy(defineConfig(full), main, { baseDir });
    expect(resolved.auth).toBe("enabled");
    expect(resolved.aiGateway).toBe(true);
    expect(resolved.dataApi).toEqual({
      state: "enabled",
      database: "app",
      authProvider: "builtin",
      settings: { dbMaxRows: 1000, dbSchemas: ["api", "public"], openapiMode: "disabled" },
    });
    expect(resolved.buckets).toEqual([
      { name: "avatars", access: "private" },
      { name: "public.assets", access: "public_read" },
      { name: "uploads", access: "private" },
    ]);
    expect(resolved.functions.map((f) => [f.slug, f.name, f.sourcePath, f.bundler, f.sourcemap, f.customDomains])).toEqual([
      ["api", "API", "/repo/functions/api/index.ts", "esbuild", true, ["api.example.com"]],
      ["thumbs", "Thumbnails", "/opt/prebuilt/thumbs", "none", false, []],
      ["web", "Web front", "/repo/functions/web", "esbuild", false, ["example.com", "www.example.com"]],
    ]);
    expect(resolved.functions[0]?.dev).toEqual({ port: 8787 });
    expect(Object.keys(resolved.functions[2]?.env ?? {})).toEqual(["API_URL", "LEGACY_FLAG", "NODE_ENV"]);
    expect(resolved.functions[2]?.env.LEGACY_FLAG).toBe("");
    expect(resolved.triggers).toEqual([
      { name: "nightly", type: "schedule", function: "api", cron: "0 3 * * *", functionPath: "/jobs/nightly", enabled: true },
      { name: "onUpload", type: "storage_object_created", function: "thumbs", bucket: "uploads", prefix: "images/", functionPath: "/", enabled: false },
    ]);
    expect(resolved.prune).toEqual({ functions: true, triggers: false, customDomains: true, buckets: false, roles: false, databases: false });
    expect(resolved.branch).toEqual({ protected: true, compute: { minCu: 1, maxCu: 4, suspendTimeoutSeconds: -1 } });
  });

  it("resolves the full policy on a preview branch: tuned domains only, ttl and compute in seconds", () => {
    const resolved = resolvePolicy(defineConfig(full), preview, { baseDir });
    expect(resolved.functions.map((f) => [f.slug, f.customDomains])).toEqual([
      ["api", ["feature-x.preview.example.com"]],
      ["thumbs", []],
      ["web", []],
    ]);
    expect(resolved.branch).toEqual({ parent: "main", ttlSeconds: 604_800, compute: { minCu: 0.25, maxCu: 0.25, suspendTimeoutSeconds: 300 } });
  });

  it("rejects the invalid fixture with every expected issue", () => {
    expect(issuesOf(() => validatePolicy(invalid))).toEqual(expectedIssues);
  });
});

describe("resolvePolicy: determinism", () => {
  it("gives the same output whatever the key order of the policy", () => {
    const a = defineConfig({ buckets: { b: {}, a: {}, "Z": {} }, functions: { zz: { name: "Z", source: "/z", env: { B: "1", A: "2" } }, aa: { name: "A", source: "/a" } } });
    const b = defineConfig({ functions: { aa: { name: "A", source: "/a" }, zz: { name: "Z", source: "/z", env: { A: "2", B: "1" } } }, buckets: { a: {}, Z: {}, b: {} } });
    expect(JSON.stringify(resolvePolicy(a, main))).toBe(JSON.stringify(resolvePolicy(b, main)));
    expect(resolvePolicy(a, main).buckets.map((x) => x.name)).toEqual(["Z", "a", "b"]);
  });

  it("returns frozen output", () => {
    const resolved = resolvePolicy(defineConfig(full), main, { baseDir });
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.functions[0]?.customDomains)).toBe(true);
    expect(Object.isFrozen(resolved.target)).toBe(true);
  });

  it("accepts a plain object that did not go through defineConfig", () => {
    expect(resolvePolicy({ auth: true }, main).auth).toBe("enabled");
  });
});

describe("resolvePolicy: toggles and defaults", () => {
  it.each<[PolicyConfig, "enabled" | "unmanaged", boolean]>([
    [{}, "unmanaged", false],
    [{ auth: true }, "enabled", false],
    [{ auth: {} }, "enabled", false],
    [{ auth: { enabled: true } }, "enabled", false],
    [{ auth: false }, "unmanaged", true],
    [{ auth: { enabled: false } }, "unmanaged", true],
  ])("resolves auth %j as %s (declared off: %s)", (policy, auth, off) => {
    const resolved = resolvePolicy(policy, main);
    expect([resolved.auth, resolved.authDeclaredOff]).toEqual([auth, off]);
  });

  it.each<[PolicyConfig, unknown]>([
    [{}, { state: "unmanaged" }],
    [{ dataApi: false }, { state: "disabled" }],
    [{ dataApi: { enabled: false } }, { state: "disabled" }],
    [{ auth: true, dataApi: true }, { state: "enabled", database: "neondb", authProvider: "builtin", settings: {} }],
    [
      { dataApi: { authProvider: "external", jwksUrl: "https://id.example.com/jwks", jwtAudience: "api", settings: { dbMaxRows: undefined } } },
      { state: "enabled", database: "neondb", authProvider: "external", jwksUrl: "https://id.example.com/jwks", jwtAudience: "api", settings: {} },
    ],
  ])("resolves dataApi of %j", (policy, dataApi) => {
    expect(resolvePolicy(policy, main).dataApi).toEqual(dataApi);
  });

  it.each<[PolicyConfig, boolean]>([
    [{}, false],
    [{ aiGateway: true }, true],
    [{ aiGateway: { enabled: false } }, false],
    [{ preview: { aiGateway: {} } }, true],
  ])("resolves aiGateway of %j as %s", (policy, on) => {
    expect(resolvePolicy(policy, main).aiGateway).toBe(on);
  });

  it.each<[PolicyConfig["prune"], boolean[]]>([
    [undefined, [false, false, false, false, false, false]],
    [true, [true, true, true, true, false, false]],
    [false, [false, false, false, false, false, false]],
    [{ triggers: true }, [false, true, false, false, false, false]],
    [{ roles: true, databases: true }, [false, false, false, false, true, true]],
  ])("resolves prune %j", (prune, flags) => {
    const resolved = resolvePolicy(prune === undefined ? {} : { prune }, main).prune;
    expect([resolved.functions, resolved.triggers, resolved.customDomains, resolved.buckets, resolved.roles, resolved.databases]).toEqual(flags);
  });

  it("types every resolved prune flag as a required boolean", () => {
    expectTypeOf<ResolvedPolicy["prune"]>().toEqualTypeOf<Record<"functions" | "triggers" | "customDomains" | "buckets" | "roles" | "databases", boolean>>();
  });

  it.each<[string, PolicyConfig["prune"], string[]]>([
    ["omitted", undefined, []],
    ["false", false, ["functions", "triggers", "customDomains", "buckets"]],
    ["true", true, ["functions", "triggers", "customDomains", "buckets"]],
    ["named, false or true", { buckets: false, databases: true }, ["buckets", "databases"]],
    ["an empty object", {}, []],
  ])("records which prune flags a policy states (%s), so a plan reads those kinds", (_, prune, stated) => {
    const resolved = resolvePolicy(defineConfig(prune === undefined ? {} : { prune }), main, { baseDir });
    expect(Object.keys(resolved.pruneStated).filter((kind) => resolved.pruneStated[kind as keyof typeof resolved.pruneStated])).toEqual(stated);
  });
});

describe("resolvePolicy: sources and base directory", () => {
  const policy = defineConfig({ functions: { hello: { name: "Hello", source: "./functions/hello" } } });

  it("resolves sources against the directory of the file the policy was loaded from", () => {
    const loaded = validatePolicy({ functions: { hello: { name: "Hello", source: "../shared/hello.ts" } } });
    rememberPolicyFile(loaded, "/repo/app/svc.ts");
    const resolved = resolvePolicy(loaded, main);
    expect(resolved.baseDir).toBe("/repo/app");
    expect(resolved.functions[0]?.sourcePath).toBe("/repo/shared/hello.ts");
  });

  it("prefers options.baseDir over the policy file's directory", () => {
    const loaded = validatePolicy({ functions: { hello: { name: "Hello", source: "./hello" } } });
    rememberPolicyFile(loaded, "/repo/app/svc.ts");
    expect(resolvePolicy(loaded, main, { baseDir: "/elsewhere" }).functions[0]?.sourcePath).toBe("/elsewhere/hello");
  });

  it("rejects a relative source when there is no base directory", () => {
    const err = validationErrorOf(() => resolvePolicy(policy, main));
    expect(err.issues).toEqual([
      {
        path: "functions.hello.source",
        message: "relative source needs a base directory; load the policy with loadConfigFromFile or pass baseDir",
      },
    ]);
  });

  it("reports the relative source on its deprecated home", () => {
    const issues = issuesOf(() => resolvePolicy({ preview: { functions: { hi: { name: "Hi", source: "hi" } } } }, main));
    expect(issues.map((i) => i.path)).toEqual(["preview.functions.hi.source"]);
  });

  it("accepts absolute sources without a base directory", () => {
    const resolved = resolvePolicy({ functions: { a: { name: "A", source: "/srv/a/../b" } } }, main);
    expect([resolved.baseDir, resolved.functions[0]?.sourcePath]).toEqual([null, "/srv/b"]);
  });

  it("rejects a relative baseDir option", () => {
    let thrown: unknown;
    try {
      resolvePolicy(policy, main, { baseDir: "repo" });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PlatformError);
    expect(isPlatformError(thrown, ErrorCode.INVALID_OPTIONS)).toBe(true);
    expect((thrown as Error).message).toContain("baseDir must be an absolute directory");
  });

  it("does not evaluate the closure when the static part is invalid", () => {
    let calls = 0;
    const issues = issuesOf(() => resolvePolicy({ functions: { a: { name: "A", source: "a" } }, branch: () => ((calls += 1), {}) }, main));
    expect(issues.map((i) => i.path)).toEqual(["functions.a.source"]);
    expect(calls).toBe(0);
  });

  it("names the policy file in the static-stage message", () => {
    const loaded = { functions: { a: { name: "", source: "/a" } } };
    rememberPolicyFile(loaded, "/repo/svc.ts");
    const err = validationErrorOf(() => resolvePolicy(loaded, main));
    expect(err.message.split("\n")[0]).toBe("Invalid policy in /repo/svc.ts:");
    expect(err.issues.map((i) => i.path)).toEqual(["functions.a.name"]);
  });
});

describe("resolvePolicy: deprecated keys", () => {
  it("lists every deprecated home used, sorted", () => {
    const resolved = resolvePolicy(
      {
        preview: { functions: { hi: { name: "Hi", source: "/hi" } }, buckets: { b: {} }, aiGateway: true },
        branch: () => ({ preview: { functions: { hi: { runtime: "nodejs24" } } } }),
      },
      main,
    );
    expect(resolved.deprecatedKeys).toEqual(["branch.preview.functions", "preview.aiGateway", "preview.buckets", "preview.functions"]);
    expect(resolved.functions.map((f) => f.slug)).toEqual(["hi"]);
    expect(resolved.buckets.map((b) => b.name)).toEqual(["b"]);
  });
});
