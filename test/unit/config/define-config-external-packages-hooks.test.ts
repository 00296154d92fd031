import { describe, expect, it } from "vitest";
import { defineConfig, resolvePolicy, validatePolicy, type BranchTarget, type PolicyConfig } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const fn = { name: "Hello", source: "./functions/hello" };
const withPackages = (externalPackages: unknown, extra: Record<string, unknown> = {}) => ({ functions: { api: { ...fn, ...extra, externalPackages } } });
const target: BranchTarget = { name: "main", exists: true, isDefault: true, isProtected: false };

describe("functions.<slug>.externalPackages: valid lists", () => {
  it.each<[string, unknown]>([
    ["an empty list", []],
    ["a plain name", ["sharp"]],
    ["a scoped name", ["@node-rs/argon2"]],
    ["the object form", [{ name: "sharp" }, { name: "pg-native", includeFiles: false }]],
    ["names with dots, dashes, underscores and tildes", ["lodash.merge", "a-b_c~d"]],
  ])("accepts %s", (_label, list) => {
    expect(() => validatePolicy(withPackages(list))).not.toThrow();
  });

  it("accepts the key with bundler esbuild spelled out", () => {
    expect(() => validatePolicy(withPackages(["sharp"], { bundler: "esbuild" }))).not.toThrow();
  });

  it("resolves every entry to { name, includeFiles } in declaration order", () => {
    const policy = defineConfig(withPackages(["sharp", { name: "@node-rs/argon2" }, { name: "pg-native", includeFiles: false }]) as PolicyConfig);
    const [api] = resolvePolicy(policy, target, { baseDir: "/repo" }).functions;
    expect(api?.externalPackages).toEqual([
      { name: "sharp", includeFiles: true },
      { name: "@node-rs/argon2", includeFiles: true },
      { name: "pg-native", includeFiles: false },
    ]);
  });

  it("leaves the field out of a function that declares none", () => {
    const [api] = resolvePolicy(defineConfig({ functions: { api: fn } }), target, { baseDir: "/repo" }).functions;
    expect(api).not.toHaveProperty("externalPackages");
  });
});

describe("functions.<slug>.externalPackages: refusals", () => {
  const path = "functions.api.externalPackages";
  it.each<[string, unknown, string, string]>([
    ["a string instead of a list", "sharp", path, "must be a list of package names (got a string)"],
    ["a number entry", [5], `${path}[0]`, "must be a package name or { name, includeFiles? } (got a number)"],
    ["an upper-case name", ["Sharp"], `${path}[0]`, '"Sharp" is not a package name: it is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)'],
    ["a version", ["sharp@0.33.0"], `${path}[0]`, '"sharp@0.33.0" is not a package name: it carries a version: the version installed in the project is staged, so write the name alone'],
    ["a subpath", ["sharp/lib"], `${path}[0]`, '"sharp/lib" is not a package name: it is a path or a subpath: name the package itself (its subpaths are external with it)'],
    ["a relative path", ["./vendor/x"], `${path}[0]`, '"./vendor/x" is not a package name: it is a path or a subpath: name the package itself (its subpaths are external with it)'],
    ["a built-in", ["node:fs"], `${path}[0]`, '"node:fs" is not a package name: it names a Node.js built-in, which is never bundled'],
    ["an empty name", [""], `${path}[0]`, '"" is not a package name: it is empty'],
    ["__proto__", ["__proto__"], `${path}[0]`, '"__proto__" is not a package name: it is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)'],
    ["a control character", ["a\u202eb"], `${path}[0]`, '"a\\u202eb" is not a package name: it is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)'],
    ["a name past 214 characters", ["a".repeat(215)], `${path}[0]`, "a long string is not a package name: it is longer than 214 characters"],
    ["an unknown key", [{ name: "sharp", version: "1" }], `${path}[0]`, '"version" is not a known key here'],
    ["a string includeFiles", [{ name: "sharp", includeFiles: "yes" }], `${path}[0].includeFiles`, "must be true or false (got a string)"],
    ["a duplicate", ["sharp", { name: "sharp" }], `${path}[1]`, "package sharp is listed twice: externalPackages[0] and externalPackages[1]"],
  ])("rejects %s on %s", (_label, list, at, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(withPackages(list))), at).message).toBe(message);
  });

  it.each<[string, unknown]>([
    ["none", "none"],
    ["a custom bundler", async () => ({ "index.mjs": "" })],
  ])("rejects the key with bundler %s", (_label, bundler) => {
    expect(issueAt(issuesOf(() => validatePolicy(withPackages(["sharp"], { bundler }))), "functions.api.externalPackages").message).toBe(
      'only the esbuild bundler leaves packages external; remove `externalPackages` or use bundler "esbuild" (with "none" or a custom bundler, ship node_modules yourself)',
    );
  });
});

describe("hooks: valid definitions", () => {
  it.each<[string, unknown]>([
    ["no events", {}],
    ["a shell command", { create: { after: 'psql "$DATABASE_URL" -f migrations/001.sql' } }],
    ["a list of commands", { deploy: { before: ["npm test", "npm run lint"] } }],
    ["functions in every phase", { checkout: { before: () => ({ name: "x" }), after: async () => undefined }, create: { before: () => undefined }, deploy: { after: () => undefined } }],
    ["a multi-line script", { create: { after: "set -e\nnpm run migrate\nnpm run seed" } }],
  ])("accepts %s", (_label, hooks) => {
    expect(() => validatePolicy({ hooks })).not.toThrow();
  });

  it("keeps hook functions by reference and freezes command lists", () => {
    const before = (): void => undefined;
    const policy = defineConfig({ hooks: { create: { before, after: ["a", "b"] } } });
    expect(policy.hooks?.create?.before).toBe(before);
    expect(Object.isFrozen(policy.hooks?.create?.after)).toBe(true);
  });
});

describe("hooks: refusals", () => {
  it.each<[string, unknown, string, string]>([
    ["a list", [], "hooks", "must be { checkout?, create?, deploy? } (got an array)"],
    ["an unknown event", { build: {} }, "hooks", '"build" is not a known key here'],
    ["a misspelt event", { deplay: {} }, "hooks", '"deplay" is not a known key here (did you mean "deploy"?)'],
    ["an unknown phase", { create: { during: "x" } }, "hooks.create", '"during" is not a known key here'],
    ["phases that are not an object", { create: "npm run migrate" }, "hooks.create", "must be { before?, after? } (got a string)"],
    ["a number", { checkout: { before: 4 } }, "hooks.checkout.before", "must be a function, a shell command or a non-empty list of shell commands (got a number)"],
    ["an object", { deploy: { after: { run: "x" } } }, "hooks.deploy.after", "must be a function, a shell command or a non-empty list of shell commands (got an object)"],
    ["null", { deploy: { after: null } }, "hooks.deploy.after", "must be a function, a shell command or a non-empty list of shell commands (got null)"],
    ["an empty command", { create: { after: "   " } }, "hooks.create.after", "must be a non-empty shell command"],
    ["a NUL character", { create: { after: "echo a\0b" } }, "hooks.create.after", "must not contain a NUL character (no shell can receive it)"],
    ["an empty list", { create: { before: [] } }, "hooks.create.before", "is an empty list: give at least one command, or remove the hook"],
    ["an empty command in a list", { deploy: { after: ["a", ""] } }, "hooks.deploy.after[1]", "must be a non-empty shell command"],
    ["a number in a list", { deploy: { after: ["a", 3] } }, "hooks.deploy.after[1]", "must be a shell command (got a number)"],
  ])("rejects %s on %s", (_label, hooks, at, message) => {
    expect(issueAt(issuesOf(() => validatePolicy({ hooks })), at).message).toBe(message);
  });

  it("reports every bad hook at once", () => {
    const issues = issuesOf(() => validatePolicy({ hooks: { checkout: { before: 1 }, create: { after: [] }, deploy: { after: [""] } } }));
    expect(issues.map((i) => i.path)).toEqual(["hooks.checkout.before", "hooks.create.after", "hooks.deploy.after[0]"]);
  });
});
