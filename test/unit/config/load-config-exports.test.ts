import { afterEach, describe, expect, it } from "vitest";
import { ConfigLoadError, ConfigValidationError, ErrorCode, PlatformError, isPlatformError } from "../../../src/v1.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { policyFileOf } from "../../../src/config/policy-origin.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

/** Writes `files` into a fresh tree (with `.git` at its root) and loads its svc.ts. */
async function load(files: Record<string, string>): Promise<{ t: TempTree; config: unknown; resolvedPath: string }> {
  const t = createTempTree({ ".git/": "", ...files });
  tree = t;
  const { config, resolvedPath } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
  return { t, config, resolvedPath };
}

async function loadError(files: Record<string, string>): Promise<{ t: TempTree; err: ConfigLoadError }> {
  const t = createTempTree({ ".git/": "", ...files });
  tree = t;
  const err: unknown = await loadConfigFromFile({ cwd: t.root, stopAt: t.root }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigLoadError);
  expect(isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)).toBe(true);
  return { t, err: err as ConfigLoadError };
}

describe("export selection", () => {
  it.each([
    ["a default export", "export default { auth: true };"],
    ["a named `config` export", "export const config = { auth: true };"],
    ["the same object as both `default` and `config`", "export const config = { auth: true };\nexport default config;"],
    ["a CommonJS `module.exports` object", "module.exports = { auth: true };"],
    ["a CommonJS `exports.config`", "exports.config = { auth: true };"],
  ])("accepts %s", async (_label, source) => {
    const { config } = await load({ "svc.ts": source });
    expect(config).toMatchObject({ auth: true });
  });

  it("rejects a module whose `default` and `config` exports differ", async () => {
    const { t, err } = await loadError({
      "svc.ts": "export const config = { auth: true };\nexport default { auth: false };",
    });
    expect(err.message).toBe(
      `${t.path("svc.ts")} exports both \`default\` and \`config\`; keep one (or export the same object under both names)`,
    );
    expect(err.details).toEqual({ file: t.path("svc.ts") });
  });

  it.each([
    ["only other named exports", "export const settings = { auth: true };"],
    ["no exports at all", "const unused = 1;"],
  ])("rejects a module with %s and says how to export a policy", async (_label, source) => {
    const { t, err } = await loadError({ "svc.ts": source });
    expect(err.message).toBe(
      `${t.path("svc.ts")} has no default export or \`config\` export; add \`export default defineConfig({ ... })\``,
    );
    expect(err.details).toEqual({ file: t.path("svc.ts") });
  });
});

describe("the loaded policy", () => {
  it("remembers its file, so relative function sources resolve against it", async () => {
    const { config, resolvedPath } = await load({ "svc.ts": "export default { auth: true };" });
    expect(policyFileOf(config as object)).toBe(resolvedPath);
  });

  it("runs TypeScript syntax and local TypeScript imports", async () => {
    const { config } = await load({
      "svc.ts": [
        'import { enabled } from "./lib/flags";',
        "interface Shape { auth: boolean }",
        "const policy: Shape = { auth: enabled satisfies boolean };",
        "export default policy;",
      ].join("\n"),
      "lib/flags.ts": "export const enabled: boolean = true as const;",
    });
    expect(config).toMatchObject({ auth: true });
  });

  it.each(["svc-config/v1", "svc-config"])("gives a policy that imports %s this package's own classes", async (specifier) => {
    const { err } = await loadError({
      "svc.ts": [
        `import { PlatformError, ErrorCode } from "${specifier}";`,
        'throw new PlatformError(ErrorCode.INVALID_OPTIONS, "thrown by the policy");',
      ].join("\n"),
    });
    expect(err.cause).toBeInstanceOf(PlatformError);
    expect((err.cause as PlatformError).message).toBe("thrown by the policy");
  });
});

/** A policy a new user writes; line 14 is the function's `env`. */
const REALISTIC = [
  'import { defineConfig } from "svc-config/v1";',
  "",
  "export default defineConfig({",
  "  auth: true,",
  '  dataApi: { settings: { dbSchemas: ["api", "public"] } },',
  "  buckets: {",
  '    uploads: { access: "private" },',
  '    avatars: { access: "public_read" },',
  "  },",
  "  functions: {",
  "    api: {",
  '      name: "API",',
  '      source: "./functions/api",',
  '      env: { LOG_LEVEL: "info" },',
  "    },",
  "  },",
  '  branch: (t) => (t.isDefault ? { protected: true } : { ttl: "7d" }),',
  "  // the end",
  "});",
  "",
].join("\n");

describe("evaluation errors", () => {
  it("names the file and keeps the cause of a syntax error", async () => {
    const { t, err } = await loadError({ "svc.ts": "export default { auth: true ;\n" });
    expect(err.message).toMatch(new RegExp(`^failed to evaluate ${t.path("svc.ts")}: `));
    expect(err.cause).toBeInstanceOf(Error);
    expect(err.message).toContain((err.cause as Error).message);
    expect(err.details).toEqual({ file: t.path("svc.ts"), location: `${t.path("svc.ts")}:1:29` });
  });

  it.each([
    ["a doubled comma", "svc.ts", '      env: { LOG_LEVEL: "info" },,', "14:34", 'Expected identifier but found ","'],
    ["a missing comma", "svc.ts", '      env: { LOG_LEVEL: "info" } customDomains: [],', "14:34", 'Expected "}" but found "customDomains"'],
    ["a doubled comma in an .mjs policy", "svc.mjs", '      env: { LOG_LEVEL: "info" },,', "14:34", 'Expected identifier but found ","'],
  ])("reports %s at esbuild's first error, 1-based, with the line itself", async (_label, name, line14, at, text) => {
    const lines = REALISTIC.split("\n");
    lines.splice(13, 1, line14);
    const { t, err } = await loadError({ [name]: lines.join("\n") });
    expect(err.message.split("\n")).toEqual([`failed to evaluate ${t.path(name)}: ${t.path(name)}:${at}: ${text}`, `  > ${line14.trim()}`]);
    expect(err.details).toEqual({ file: t.path(name), location: `${t.path(name)}:${at}` });
  });

  it("points at the bracket left open, not only at the end of the file where the parser stops", async () => {
    const lines = REALISTIC.split("\n");
    lines.splice(13, 1, '      env: { LOG_LEVEL: "info" ,');
    const { t, err } = await loadError({ "svc.ts": lines.join("\n") });
    expect(err.message.split("\n")).toEqual([
      `failed to evaluate ${t.path("svc.ts")}: ${t.path("svc.ts")}:19:2: Expected "}" but found ")"`,
      "  > });",
      `  the "{" at ${t.path("svc.ts")}:14:12 is probably not closed: the next line that starts with a closing bracket is indented less than line 14`,
    ]);
    expect(err.details).toEqual({ file: t.path("svc.ts"), location: `${t.path("svc.ts")}:14:12` });
  });

  it.each([
    ["in the policy", "svc.ts", { "svc.ts": 'export default {\n  buckets: { uploads: { access: "private" },\n    avatars: {}, uploads: { access: "public_read" } },\n};\n' }],
    [
      "in a local helper it imports",
      "helper.mjs",
      {
        "svc.ts": 'import { buckets } from "./helper.mjs";\nexport default { buckets };\n',
        "helper.mjs": 'export const buckets = { uploads: { access: "private" },\n    avatars: {}, uploads: { access: "public_read" } },\n  other = 1;\n',
      },
    ],
  ])("refuses a key written twice in one object %s, which JavaScript would resolve silently to the last, naming both places", async (_label, name, files) => {
    const { t, err } = await loadError(files);
    const [second, first] = name === "svc.ts" ? ["3:18", "2:14"] : ["2:18", "1:26"];
    expect(err.message.split("\n")).toEqual([
      `failed to evaluate ${t.path("svc.ts")}: ${t.path(name)}:${second}: "uploads" is set twice in one object; only the last value would count`,
      '  > avatars: {}, uploads: { access: "public_read" } },',
      `  the first "uploads" is at ${t.path(name)}:${first}: keep one of them`,
    ]);
    expect(err.details).toEqual({ file: t.path("svc.ts"), location: `${t.path(name)}:${second}` });
  });

  it("still accepts a key that a spread sets before it", async () => {
    const { config } = await load({ "svc.ts": 'const base = { uploads: {} };\nexport default { buckets: { ...base, uploads: { access: "public_read" } } };\n' });
    expect(config).toMatchObject({ buckets: { uploads: { access: "public_read" } } });
  });

  it.each([
    ["in the policy", { "svc.ts": 'throw new TypeError("database url is missing");\nexport default {};' }, "svc.ts:1:7"],
    [
      "in the policy, after type annotations the transpiler removed",
      {
        "svc.ts": [
          "type Settings = { url?: string };",
          "const settings: Settings = {};",
          'export default { auth: settings.url !== undefined || ((): boolean => { throw new TypeError("database url is missing"); })() };',
        ].join("\n"),
      },
      "svc.ts:3:78",
    ],
    [
      "in a local helper it imports",
      {
        "svc.ts": 'import { value } from "./helper.mjs";\nexport default { auth: value };',
        "helper.mjs": 'const pad = "";\nexport const value = pad === "" ? (() => { throw new TypeError("database url is missing"); })() : true;',
      },
      "helper.mjs:2:50",
    ],
    [
      "in an indented line of a CommonJS helper",
      {
        "svc.ts": 'import { value } from "./helper.cjs";\nexport default { auth: value };',
        "helper.cjs": '\n  throw new TypeError("database url is missing");\nexports.value = true;',
      },
      "helper.cjs:2:9",
    ],
  ])("names the policy file, where it threw, and keeps the original error thrown %s", async (_label, files, at) => {
    const { t, err } = await loadError(files);
    expect(err.message).toBe(`failed to evaluate ${t.path("svc.ts")}: database url is missing (at ${t.path(at)})`);
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(err.details).toEqual({ file: t.path("svc.ts"), location: t.path(at) });
  });

  it("explains that top-level await is not supported in the policy", async () => {
    const { t, err } = await loadError({
      "svc.ts": "const auth = await Promise.resolve(true);\nexport default { auth };",
    });
    expect(err.message).toBe(
      `${t.path("svc.ts")} uses top-level await, which a policy file cannot use: it is evaluated synchronously, and so is its \`branch\` closure; ` +
        "read the value synchronously (process.env, readFileSync), or compute it before loading the policy and pass it in through the environment",
    );
    expect(err.cause).toBeInstanceOf(SyntaxError);
    expect(err.details).toEqual({ file: t.path("svc.ts"), awaitIn: t.path("svc.ts") });
  });

  it.each([
    ["`await`", "export const auth = await Promise.resolve(true);"],
    ["`for await`", "export let auth = false;\nfor await (const x of [true]) auth = x;"],
  ])("names the helper that uses top-level %s", async (_label, helper) => {
    const { t, err } = await loadError({
      "svc.ts": 'import { auth } from "./helper.mjs";\nexport default { auth };',
      "helper.mjs": helper,
    });
    expect(err.message).toBe(
      `${t.path("helper.mjs")} (imported by ${t.path("svc.ts")}) uses top-level await, which a policy file cannot use: ` +
        "it is evaluated synchronously, and so is its `branch` closure; " +
        "read the value synchronously (process.env, readFileSync), or compute it before loading the policy and pass it in through the environment",
    );
    expect(err.details).toEqual({ file: t.path("svc.ts"), awaitIn: t.path("helper.mjs") });
  });
});

describe("policies written with defineConfig", () => {
  const example = [
    'import { defineConfig } from "svc-config/v1";',
    "",
    "export default defineConfig({",
    "  auth: true,",
    '  dataApi: { settings: { dbSchemas: ["api", "public"] } },',
    '  buckets: { uploads: { access: "private" } },',
    "  functions: {",
    '    hello: { name: "Hello", source: "./functions/hello", env: { GREETING: "hi" },',
    '             customDomains: ["hello.example.com"] },',
    "  },",
    '  triggers: { hourly: { type: "schedule", function: "hello", cron: "0 * * * *" } },',
    '  branch: (t) => (t.isDefault ? { protected: true } : { ttl: "7d" }),',
    "});",
  ].join("\n");

  it.each(["svc.ts", "svc.mts", "svc.js", "svc.mjs"])("loads the policy.md example as %s", async (name) => {
    const { config, resolvedPath, t } = await load({ [name]: example, "functions/hello/index.ts": "export default () => 1;" });
    expect(resolvedPath).toBe(t.path(name));
    expect(config).toMatchObject({ auth: true, buckets: { uploads: { access: "private" } } });
    expect(typeof (config as { branch?: unknown }).branch).toBe("function");
    expect(Object.isFrozen(config)).toBe(true);
    expect(policyFileOf(config as object)).toBe(resolvedPath);
  });

  it("reports what defineConfig rejects inside the file as an invalid policy naming the file", async () => {
    const { t, err } = await loadError({
      "svc.ts": 'import { defineConfig } from "svc-config";\nexport default defineConfig({ auth: true, buckets: { uploads: { acess: "private" } } });',
    });
    expect(err.cause).toBeInstanceOf(ConfigValidationError);
    expect(err.message.split("\n")[0]).toBe(`Invalid policy in ${t.path("svc.ts")}:`);
    expect(err.details["issues"]).toEqual(expect.arrayContaining([expect.objectContaining({ path: "buckets.uploads" })]));
    expect(err.message).toContain("  - buckets.uploads: ");
  });
});

describe("invalid policies", () => {
  it.each([
    ["an exported plain object", 'export default { auth: "yes", bogus: 1 };'],
    [
      "a ConfigValidationError thrown while the file runs",
      [
        'import { ConfigValidationError } from "svc-config/v1";',
        'throw new ConfigValidationError([{ path: "auth", message: "expected a boolean" }, { path: "", message: "\\"bogus\\" is not a known key here" }]);',
      ].join("\n"),
    ],
  ])("reports every issue of %s as a ConfigLoadError caused by the ConfigValidationError", async (_label, source) => {
    const { t, err } = await loadError({ "svc.ts": source });
    const file = t.path("svc.ts");
    expect(err.cause).toBeInstanceOf(ConfigValidationError);
    const issues = (err.cause as ConfigValidationError).issues.map((i) => ({ ...i }));
    expect(issues.length).toBeGreaterThanOrEqual(2);
    expect(err.details).toEqual({ file, issues });
    expect(err.message.split("\n")[0]).toBe(`Invalid policy in ${file}:`);
    for (const issue of issues) expect(err.message).toContain(issue.message);
    expect(err.message).toContain("  - auth: ");
  });

  it("rejects a module whose default export is not an object", async () => {
    const { err } = await loadError({ "svc.ts": "export default 42;" });
    expect(err.cause).toBeInstanceOf(ConfigValidationError);
    expect((err.cause as ConfigValidationError).issues.length).toBeGreaterThan(0);
  });
});
