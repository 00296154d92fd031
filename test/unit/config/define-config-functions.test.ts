import { describe, expect, it } from "vitest";
import { defineConfig, validatePolicy } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const fn = { name: "Hello", source: "./functions/hello" };
const withFunction = (def: Record<string, unknown>, slug = "api") => ({ functions: { [slug]: { ...fn, ...def } } });

describe("functions: valid definitions", () => {
  it.each([
    ["the two required fields", {}],
    ["every field", { env: { A: "1", _B: "", c9: "x" }, runtime: "nodejs24", bundler: "esbuild", sourcemap: true, customDomains: ["a.example.com"], dev: { port: 3000 } }],
    ["bundler none", { bundler: "none" }],
    ["a custom bundler", { bundler: async () => ({ "index.mjs": "" }) }],
    ["sourcemap false with bundler none", { bundler: "none", sourcemap: false }],
    ["an empty env value (deletes the variable)", { env: { OLD: "" } }],
    ["an absolute source", { source: "/srv/functions/hello" }],
    ["a name with surrounding spaces", { name: "  Hello  " }],
    ["a 255-character env name", { env: { ["A".repeat(255)]: "x" } }],
  ])("accepts %s", (_label, def) => {
    expect(() => validatePolicy(withFunction(def))).not.toThrow();
  });

  it.each(["a", "abc123", "a".repeat(20), "0"])("accepts the slug %j", (slug) => {
    expect(() => validatePolicy(withFunction({}, slug))).not.toThrow();
  });
});

describe("functions: invalid definitions", () => {
  it.each([
    ["Api", "functions.Api"],
    ["my-fn", "functions.my-fn"],
    ["a".repeat(21), `functions.${"a".repeat(21)}`],
    ["my.fn", 'functions["my.fn"]'],
    ["", 'functions[""]'],
  ])("rejects the slug %j on %s", (slug, path) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({}, slug))), path).message).toBe(
      `slug \`${slug}\` is invalid: use 1 to 20 characters from a–z and 0–9`,
    );
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["a missing name", { name: undefined }, "functions.api.name", "is required"],
    ["a blank name", { name: "   " }, "functions.api.name", "must be 1 to 255 characters long (after trimming)"],
    ["a long name", { name: "n".repeat(256) }, "functions.api.name", "must be 1 to 255 characters long (after trimming)"],
    ["a numeric name", { name: 7 }, "functions.api.name", "must be a string (got a number)"],
    ["a missing source", { source: undefined }, "functions.api.source", "is required"],
    ["an empty source", { source: "" }, "functions.api.source", "must not be empty"],
    ["another runtime", { runtime: "nodejs20" }, "functions.api.runtime", 'must be "nodejs24" (got "nodejs20")'],
    ["an unknown bundler", { bundler: "webpack" }, "functions.api.bundler", 'must be "esbuild", "none" or a bundler function (got "webpack")'],
    ["sourcemap with bundler none", { bundler: "none", sourcemap: true }, "functions.api.sourcemap", 'only the esbuild bundler ships source maps; remove `sourcemap` or use bundler "esbuild"'],
    ["sourcemap with a custom bundler", { bundler: async () => ({}), sourcemap: true }, "functions.api.sourcemap", 'only the esbuild bundler ships source maps; remove `sourcemap` or use bundler "esbuild"'],
    ["a string sourcemap", { sourcemap: "yes" }, "functions.api.sourcemap", "must be true or false (got a string)"],
    ["port 0", { dev: { port: 0 } }, "functions.api.dev.port", "must be an integer from 1 to 65535 (got 0)"],
    ["port 65536", { dev: { port: 65_536 } }, "functions.api.dev.port", "must be an integer from 1 to 65535 (got 65536)"],
    ["a fractional port", { dev: { port: 80.5 } }, "functions.api.dev.port", "must be an integer from 1 to 65535 (got 80.5)"],
    ["an unknown dev key", { dev: { host: "x" } }, "functions.api.dev", '"host" is not a known key here'],
    ["a definition that is not an object", { source: "./x", name: "x", env: [] }, "functions.api.env", "must be an object of name → string (got an array)"],
  ])("rejects %s", (_label, def, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction(def))), path).message).toBe(message);
  });

  it("rejects a function definition that is not an object", () => {
    expect(issueAt(issuesOf(() => validatePolicy({ functions: { api: "./api" } })), "functions.api").message).toBe(
      "must be a function definition { name, source, … } (got a string)",
    );
  });

  it("rejects functions that is not an object", () => {
    expect(issueAt(issuesOf(() => validatePolicy({ functions: [] })), "functions").message).toBe(
      "must be an object of slug → function definition (got an array)",
    );
  });
});

describe("functions: env", () => {
  it("refuses a NUL character in a value, which no process environment can hold, without quoting the value", () => {
    const issue = issueAt(issuesOf(() => validatePolicy(withFunction({ env: { TOKEN: "sk_live_abc\u0000def" } }))), "functions.api.env.TOKEN");
    expect(issue.message).toContain("value contains a NUL character");
    expect(issue.message).not.toContain("sk_live");
  });

  it("explains an undefined value and never turns it into an empty string", () => {
    const issue = issueAt(issuesOf(() => validatePolicy(withFunction({ env: { STRIPE_KEY: undefined } }))), "functions.api.env.STRIPE_KEY");
    expect(issue.message).toBe(
      'value is undefined (is an environment variable unset?). Set a value, or write "" to delete STRIPE_KEY from the deployed function.',
    );
  });

  it.each<[string, unknown, string]>([
    ["a number", 42, "must be a string (got a number)"],
    ["a boolean", true, "must be a string (got a boolean)"],
    ["null", null, "must be a string (got null)"],
    ["an object", { v: 1 }, "must be a string (got an object)"],
    ["Infinity", Number.POSITIVE_INFINITY, "must be a string (got Infinity)"],
  ])("rejects %s as a value", (_label, value, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({ env: { KEY: value } }))), "functions.api.env.KEY").message).toBe(message);
  });

  it.each([
    ["1KEY", "functions.api.env.1KEY"],
    ["MY-KEY", "functions.api.env.MY-KEY"],
    ["MY.KEY", 'functions.api.env["MY.KEY"]'],
    ["A".repeat(256), `functions.api.env.${"A".repeat(256)}`],
  ])("rejects the name %j", (key, path) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({ env: { [key]: "v" } }))), path).message).toMatch(
      /^env name .* is invalid: use letters, digits and _ \(not starting with a digit\), at most 255 characters$/,
    );
  });

  it.each(["SVC_FINGERPRINT_", "SVC_FINGERPRINT_X", "svc_fingerprint_x", "Svc_Fingerprint_Code", "SVC_BRANCH", "SVC_MY_FLAG"])("rejects the reserved name %s", (key) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({ env: { [key]: "v" } }))), `functions.api.env.${key}`).message).toBe(
      `env name ${key} is reserved: names starting with SVC_ belong to the platform; rename it`,
    );
  });

  it.each(["DATABASE_URL", "DATABASE_URL_UNPOOLED", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL_S3", "AWS_REGION"])("rejects %s, which the platform injects", (key) => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({ env: { [key]: "v" } }))), `functions.api.env.${key}`).message).toBe(
      `env name ${key} is set by the platform for every function that has it; rename it (the platform's value is there already)`,
    );
  });

  it("reports every bad variable of every function", () => {
    const issues = issuesOf(() =>
      validatePolicy({
        functions: {
          a: { ...fn, env: { X: undefined, Y: 1 } },
          b: { ...fn, env: { Z: undefined } },
        },
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(["functions.a.env.X", "functions.a.env.Y", "functions.b.env.Z"]);
  });
});

describe("functions: custom domains", () => {
  it("accepts hostnames that differ only in case or a trailing dot from other functions' names", () => {
    expect(() => defineConfig(withFunction({ customDomains: ["App.Example.com.", "api.example.com"] }))).not.toThrow();
  });

  it.each([
    ["localhost", /needs at least two labels/],
    ["*.example.com", /wildcard domains are not supported/],
    ["bücher.example.com", /write the punycode form/],
  ])("rejects %j on its index", (hostname, message) => {
    const issue = issueAt(issuesOf(() => validatePolicy(withFunction({ customDomains: ["ok.example.com", hostname] }))), "functions.api.customDomains[1]");
    expect(issue.message).toMatch(message);
  });

  it("rejects a hostname listed twice in one function, naming both indexes", () => {
    const issues = issuesOf(() => validatePolicy(withFunction({ customDomains: ["a.example.com", "b.example.com", "A.EXAMPLE.com."] })));
    expect(issueAt(issues, "functions.api.customDomains[2]").message).toBe(
      "hostname a.example.com is listed twice: customDomains[0] and customDomains[2]",
    );
  });

  it("rejects a list that is not an array", () => {
    expect(issueAt(issuesOf(() => validatePolicy(withFunction({ customDomains: "a.example.com" }))), "functions.api.customDomains").message).toBe(
      "must be a list of hostnames (got a string)",
    );
  });
});
