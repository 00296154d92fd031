import { describe, expect, it } from "vitest";
import { ConfigValidationError, ErrorCode, defineConfig, isPlatformError, validatePolicy, type PolicyConfig } from "../../../src/v1.js";
import { issueAt, issuesOf, validationErrorOf } from "./validation-helpers.js";

const fn = { name: "Hello", source: "./functions/hello" };

describe("defineConfig: the policy object", () => {
  it("returns a deeply frozen copy and keeps functions by reference", () => {
    const branch = () => ({ protected: true });
    const bundler = async () => ({ "index.mjs": "export {}" });
    const input: PolicyConfig = {
      functions: { hello: { ...fn, bundler, customDomains: ["a.example.com"] } },
      branch,
    };
    const config = defineConfig(input);
    expect(config).not.toBe(input);
    expect(config).toEqual(input);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.functions?.hello?.customDomains)).toBe(true);
    expect(config.branch).toBe(branch);
    expect(config.functions?.hello?.bundler).toBe(bundler);
    expect(Object.isFrozen(branch)).toBe(false);
  });

  it("does not change when the input is mutated afterwards", () => {
    const input = { functions: { hello: { ...fn } } };
    const config = defineConfig(input);
    input.functions.hello.name = "Changed";
    expect(config.functions?.hello?.name).toBe("Hello");
  });

  it("accepts an empty policy", () => {
    expect(defineConfig({})).toEqual({});
  });

  it("returns a policy it already validated unchanged", () => {
    const config = defineConfig({ auth: true });
    expect(validatePolicy(config)).toBe(config);
  });

  it("hints at `branch` when given a function", () => {
    const issues = issuesOf(() => defineConfig((() => ({})) as unknown as PolicyConfig));
    expect(issues).toEqual([{ path: "", message: "is a function: pass an object; per-branch settings go under `branch`" }]);
  });

  it.each([
    ["null", null, "got null"],
    ["an array", [], "got an array"],
    ["a string", "svc.ts", "got a string"],
    ["undefined", undefined, "(got undefined)"],
  ])("rejects %s in place of the policy object", (_label, value, got) => {
    const [issue] = issuesOf(() => validatePolicy(value));
    expect(issue?.path).toBe("");
    expect(issue?.message).toContain(got);
  });

  it.each([
    ["functons", "", '"functons" is not a known key here (did you mean "functions"?)'],
    ["dataAPI", "", '"dataApi"'],
    ["externalPackages", "", '"externalPackages" is not a known key here'],
    ["experimental", "", '"experimental" is not a known key here'],
  ])("reports the unknown top-level key %s on the containing object", (key, path, message) => {
    const issue = issueAt(issuesOf(() => validatePolicy({ [key]: {} })), path);
    expect(issue.message).toContain(message);
  });

  it.each([
    [{ functions: { hello: { ...fn, memory: 128 } } }, "functions.hello", '"memory" is not a known key here'],
    [{ functions: { hello: { ...fn, sorce: "x" } } }, "functions.hello", '"sorce" is not a known key here (did you mean "source"?)'],
    [{ buckets: { b: { acces: "private" } } }, "buckets.b", '"acces" is not a known key here (did you mean "access"?)'],
    [{ auth: { enable: true } }, "auth", '"enable" is not a known key here (did you mean "enabled"?)'],
    [{ dataApi: { settings: { dbSchema: ["a"] } }, auth: true }, "dataApi.settings", '"dbSchema" is not a known key here (did you mean "dbSchemas"?)'],
    [{ prune: { function: true } }, "prune", '"function" is not a known key here (did you mean "functions"?)'],
    [{ preview: { triggers: {} } }, "preview", '"triggers" is not a known key here'],
  ])("reports unknown nested keys on the containing object (%#)", (policy, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(policy)), path).message).toBe(message);
  });

  it("collects every issue of the policy instead of stopping at the first", () => {
    const err = validationErrorOf(() =>
      validatePolicy({
        auth: "yes",
        functions: { api: { name: "", source: "./api", env: { STRIPE_KEY: undefined } } },
        triggers: { nightly: { type: "schedule", function: "missing", cron: "0 24 * * *" } },
        buckets: { "my.bucket": { access: "public" } },
      }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      "auth",
      "functions.api.name",
      "functions.api.env.STRIPE_KEY",
      'buckets["my.bucket"].access',
      "triggers.nightly.cron",
      "triggers.nightly.function",
    ]);
    expect(err.code).toBe(ErrorCode.CONFIG_INVALID);
    expect(isPlatformError(err, ErrorCode.CONFIG_INVALID)).toBe(true);
    expect(err.message.split("\n")[0]).toBe("Invalid policy:");
    expect(err.message).toContain("  - triggers.nightly.cron: field 2 (hour): 24 is outside 0–23");
    expect(err.details).toMatchObject({ issues: err.issues });
  });

  it("names the file in the message when validatePolicy is given one", () => {
    const err = validationErrorOf(() => validatePolicy({ auth: 1 }, { file: "/repo/svc.ts" }));
    expect(err.message.split("\n")[0]).toBe("Invalid policy in /repo/svc.ts:");
    expect(err.details).toMatchObject({ file: "/repo/svc.ts" });
  });

  it("wraps a getter that throws while the policy is read, naming its path", () => {
    const policy = Object.defineProperty({}, "auth", {
      enumerable: true,
      get() {
        throw new TypeError("boom");
      },
    });
    const err = validationErrorOf(() => validatePolicy(policy));
    expect(err.issues).toEqual([{ path: "auth", message: "could not be read: boom" }]);
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it("never shows env values in its messages", () => {
    const err = validationErrorOf(() =>
      validatePolicy({ functions: { api: { ...fn, env: { TOKEN: "sk_live_secret", BAD: 42 } } }, auth: "sk_live_secret2" }),
    );
    expect(err.message).not.toContain("sk_live_secret");
    expect(JSON.stringify(err.details)).not.toContain("sk_live_secret");
  });
});

describe("defineConfig: toggles (auth, aiGateway)", () => {
  it.each([true, false, {}, { enabled: true }, { enabled: false }])("accepts auth %j", (auth) => {
    expect(() => defineConfig({ auth })).not.toThrow();
  });

  it.each([
    [{ auth: "on" }, "auth", "must be true, false or { enabled: boolean } (got a string)"],
    [{ auth: { enabled: "yes" } }, "auth.enabled", "must be true or false (got a string)"],
    [{ aiGateway: 1 }, "aiGateway", "must be true, false or { enabled: boolean } (got a number)"],
    [{ aiGateway: null }, "aiGateway", "must be true, false or { enabled: boolean } (got null)"],
  ])("rejects %j", (policy, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(policy)), path).message).toBe(message);
  });
});

describe("defineConfig: the branch key", () => {
  it("accepts a function", () => {
    expect(() => defineConfig({ branch: () => null })).not.toThrow();
  });

  it.each([[{}], ["7d"], [null]])("rejects %j", (branch) => {
    expect(issueAt(issuesOf(() => validatePolicy({ branch })), "branch").message).toMatch(/^must be a function \(target\) => tuning/);
  });

  it("does not call the closure", () => {
    let calls = 0;
    defineConfig({ branch: () => ((calls += 1), {}) });
    expect(calls).toBe(0);
  });
});

describe("defineConfig: deprecated preview homes", () => {
  it.each(["functions", "buckets", "aiGateway"] as const)("accepts preview.%s alone", (key) => {
    const value = key === "aiGateway" ? true : {};
    expect(() => defineConfig({ preview: { [key]: value } })).not.toThrow();
  });

  it.each([
    [{ functions: {}, preview: { functions: {} } }, "functions"],
    [{ buckets: {}, preview: { buckets: {} } }, "buckets"],
    [{ aiGateway: true, preview: { aiGateway: false } }, "aiGateway"],
  ])("rejects declaring %j in both homes", (policy, key) => {
    expect(issueAt(issuesOf(() => validatePolicy(policy)), `preview.${key}`).message).toBe(
      `declared both as \`${key}\` and \`preview.${key}\`; keep the top-level key`,
    );
  });

  it("validates preview.functions like functions", () => {
    const issue = issueAt(issuesOf(() => validatePolicy({ preview: { functions: { hi: { name: "x" } } } })), "preview.functions.hi.source");
    expect(issue.message).toBe("is required");
  });

  it("lets triggers reference functions and buckets declared under preview", () => {
    expect(() =>
      defineConfig({
        preview: { functions: { hi: fn }, buckets: { up: {} } },
        triggers: { t: { type: "storage_object_created", function: "hi", bucket: "up" } },
      }),
    ).not.toThrow();
  });
});

describe("ConfigValidationError", () => {
  it("is thrown as a PlatformError subclass", () => {
    expect(() => validatePolicy({ auth: 1 })).toThrow(ConfigValidationError);
  });
});
