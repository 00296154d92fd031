import { relative } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigLoadError, ErrorCode, isPlatformError } from "../../../src/v1.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const POLICY = "export default { auth: true };\n";

let tree: TempTree | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  tree?.remove();
  tree = undefined;
});

function makeTree(files: Record<string, string>): TempTree {
  tree = createTempTree(files);
  return tree;
}

async function loadError(options: Parameters<typeof loadConfigFromFile>[0]): Promise<ConfigLoadError> {
  const err: unknown = await loadConfigFromFile(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigLoadError);
  expect(isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)).toBe(true);
  return err as ConfigLoadError;
}

describe("policy file names", () => {
  it.each(["svc.ts", "svc.mts", "svc.js", "svc.mjs"])("finds a policy named %s in cwd", async (name) => {
    const t = makeTree({ [name]: POLICY });
    const { config, resolvedPath } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    expect(resolvedPath).toBe(t.path(name));
    expect(config).toMatchObject({ auth: true });
  });

  it.each([
    ["svc.ts over svc.mts, svc.js and svc.mjs", ["svc.ts", "svc.mts", "svc.js", "svc.mjs"], "svc.ts"],
    ["svc.mts over svc.js and svc.mjs", ["svc.mts", "svc.js", "svc.mjs"], "svc.mts"],
    ["svc.js over svc.mjs", ["svc.js", "svc.mjs"], "svc.js"],
  ])("prefers %s", async (_label, names, winner) => {
    const t = makeTree(Object.fromEntries(names.map((name) => [name, POLICY])));
    const { resolvedPath } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    expect(resolvedPath).toBe(t.path(winner));
  });

  it("skips a directory that is named like a policy file", async () => {
    const t = makeTree({ "svc.ts/": "", "svc.mjs": POLICY });
    const { resolvedPath } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    expect(resolvedPath).toBe(t.path("svc.mjs"));
  });

  it("ignores other file names such as svc.config.ts and svc.cjs", async () => {
    const t = makeTree({ "svc.config.ts": POLICY, "svc.cjs": "module.exports = {};", ".git/": "" });
    const err = await loadError({ cwd: t.root, stopAt: t.root });
    expect(err.details["searched"]).toEqual(["svc.ts", "svc.mts", "svc.js", "svc.mjs"].map((n) => t.path(n)));
  });
});

describe("walking up", () => {
  it("finds the policy in a parent directory, past a package.json", async () => {
    const t = makeTree({ "svc.ts": POLICY, "packages/app/package.json": "{}", "packages/app/src/": "" });
    const { resolvedPath } = await loadConfigFromFile({ cwd: t.path("packages/app/src"), stopAt: t.root });
    expect(resolvedPath).toBe(t.path("svc.ts"));
  });

  it("takes the nearest policy when several directories have one", async () => {
    const t = makeTree({ "svc.ts": POLICY, "app/svc.mjs": POLICY, "app/src/": "" });
    const { resolvedPath } = await loadConfigFromFile({ cwd: t.path("app/src"), stopAt: t.root });
    expect(resolvedPath).toBe(t.path("app/svc.mjs"));
  });

  it("searches a directory containing .git before stopping there", async () => {
    const t = makeTree({ "repo/.git/": "", "repo/svc.js": POLICY, "repo/src/": "" });
    const { resolvedPath } = await loadConfigFromFile({ cwd: t.path("repo/src"), stopAt: t.root });
    expect(resolvedPath).toBe(t.path("repo/svc.js"));
  });

  it.each([
    [".git directory", "repo/.git/"],
    [".git file (a worktree or submodule)", "repo/.git"],
  ])("does not look above a %s", async (_label, gitPath) => {
    const t = makeTree({ "svc.ts": POLICY, [gitPath]: "gitdir: elsewhere\n", "repo/src/": "" });
    const err = await loadError({ cwd: t.path("repo/src"), stopAt: t.root });
    expect(err.details).toMatchObject({ stoppedAt: t.path("repo"), stopReason: "git" });
    expect(err.details["searched"]).not.toContain(t.path("svc.ts"));
    expect(err.message).toContain(`\`.git\` at ${t.path("repo")}`);
  });

  it("never looks above stopAt", async () => {
    const t = makeTree({ "svc.ts": POLICY, "home/project/src/": "" });
    const err = await loadError({ cwd: t.path("home/project/src"), stopAt: t.path("home") });
    expect(err.details).toMatchObject({ stoppedAt: t.path("home"), stopReason: "stopAt" });
    expect(err.details["searched"]).toEqual(
      ["home/project/src", "home/project", "home"].flatMap((dir) =>
        ["svc.ts", "svc.mts", "svc.js", "svc.mjs"].map((name) => t.path(`${dir}/${name}`)),
      ),
    );
    expect(err.message).toContain(`reached \`stopAt\` ${t.path("home")}`);
  });

  it("stops at the home directory when stopAt is not given", async () => {
    const t = makeTree({ "svc.ts": POLICY, "home/project/src/": "" });
    vi.stubEnv("HOME", t.path("home"));
    const err = await loadError({ cwd: t.path("home/project/src") });
    expect(err.details).toMatchObject({ stoppedAt: t.path("home"), stopReason: "stopAt" });
    expect(err.details["searched"]).not.toContain(t.path("svc.ts"));
  });

  it("resolves a relative cwd against the process directory and a relative stopAt against cwd", async () => {
    const t = makeTree({ "svc.ts": POLICY, "a/b/": "" });
    const { resolvedPath } = await loadConfigFromFile({ cwd: relative(process.cwd(), t.path("a/b")), stopAt: "../.." });
    expect(resolvedPath).toBe(t.path("svc.ts"));
  });

  it("stops at the filesystem root when neither .git nor stopAt is on the way", async () => {
    const t = makeTree({ "a/": "", "elsewhere/": "" });
    const err = await loadError({ cwd: t.path("a"), stopAt: t.path("elsewhere") });
    expect(err.details).toMatchObject({ stoppedAt: "/", stopReason: "root" });
    expect(err.details["searched"]).toContain("/svc.ts");
    expect(err.message).toContain("filesystem root");
  });
});

describe("the search start", () => {
  it("refuses a cwd that does not exist instead of searching its parents", async () => {
    const t = makeTree({ "svc.ts": POLICY });
    const err = await loadError({ cwd: t.path("typo"), stopAt: t.root });
    expect(err.message).toContain(`${t.path("typo")}: it is not an existing directory`);
    expect(err.details).toEqual({ cwd: t.path("typo") });
  });
});

describe("the not-found error", () => {
  it("lists every path checked, says why the walk stopped and suggests `path`", async () => {
    const t = makeTree({ ".git/": "", "sub/": "" });
    const err = await loadError({ cwd: t.path("sub"), stopAt: t.root });
    const searched = ["sub/svc.ts", "sub/svc.mts", "sub/svc.js", "sub/svc.mjs", "svc.ts", "svc.mts", "svc.js", "svc.mjs"].map(
      (p) => t.path(p),
    );
    expect(err.details).toEqual({ searched, stoppedAt: t.root, stopReason: "git" });
    for (const file of searched) expect(err.message).toContain(file);
    expect(err.message).toContain("pass `path`");
  });
});

describe("an explicit path", () => {
  it.each([
    ["an absolute path", (t: TempTree) => t.path("config/policy.ts")],
    ["a path relative to cwd", () => "config/policy.ts"],
  ])("loads the file at %s without searching", async (_label, pathOf) => {
    const t = makeTree({ "config/policy.ts": POLICY, "svc.ts": "throw new Error('the search must not run');" });
    const { resolvedPath } = await loadConfigFromFile({ path: pathOf(t), cwd: t.root });
    expect(resolvedPath).toBe(t.path("config/policy.ts"));
  });

  it("reports a missing file with its absolute path and how it was resolved", async () => {
    const t = makeTree({});
    const err = await loadError({ path: "nope/svc.ts", cwd: t.root });
    expect(err.message).toContain(t.path("nope/svc.ts"));
    expect(err.message).toContain(`"nope/svc.ts" resolved against ${t.root}`);
    expect(err.details).toMatchObject({ file: t.path("nope/svc.ts"), path: "nope/svc.ts", cwd: t.root, problem: "missing" });
  });

  it("reports a directory passed as the path and suggests the file inside it", async () => {
    const t = makeTree({ "config/": "" });
    const err = await loadError({ path: "config", cwd: t.root });
    expect(err.message).toContain(`${t.path("config")} is a directory`);
    expect(err.message).toContain(t.path("config/svc.ts"));
    expect(err.details).toMatchObject({ file: t.path("config"), problem: "directory" });
  });
});
