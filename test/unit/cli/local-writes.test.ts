import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { checkLocalWrites, localWrite, policyFiles, writeLocalFile } from "../../../src/cli/files.js";
import { localWriteIssue } from "../../../src/rules/local-file.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

function project(): TempTree {
  tree = createTempTree({
    ".git/": "",
    "svc.ts": 'import { base } from "./lib/base.ts";\nimport data from "./data.json";\nexport default { ...base, ...data };\n',
    "lib/base.ts": 'import "./deep.mjs";\nexport const base = {};\n',
    "lib/deep.mjs": "export {};\n",
    "data.json": "{}\n",
    "notes.txt": "keep\n",
  });
  return tree;
}

describe("what a local write may target", () => {
  it.each([
    ["an absent file in the project", (_t: TempTree) => "new.env", null],
    ["a regular file", (_t: TempTree) => "notes.txt", null],
    ["a file in a directory that does not exist", (_t: TempTree) => "nope/.env", "is in a directory that does not exist"],
    ["a path under a file", (_t: TempTree) => "notes.txt/.env", "which is not a directory"],
    ["a directory", (t: TempTree) => (mkdirSync(t.path("dir")), "dir"), "is a directory"],
    ["a FIFO", (t: TempTree) => (execFileSync("mkfifo", [t.path("pipe")]), "pipe"), "is a FIFO (named pipe)"],
    ["a symlink to a regular file", (t: TempTree) => (symlinkSync("notes.txt", t.path("link")), "link"), "is a symbolic link (to notes.txt)"],
    ["a dangling symlink", (t: TempTree) => (symlinkSync("gone", t.path("dangling")), "dangling"), "is a symbolic link (to gone)"],
  ])("%s", (_name, make, issue) => {
    const t = project();
    const found = localWriteIssue(t.path(make(t)));
    if (issue === null) expect(found).toBeNull();
    else expect(found).toContain(issue);
  });
});

describe("checkLocalWrites", () => {
  it("finds the files the policy imports without running it", async () => {
    const t = project();
    const files = (await policyFiles(t.path("svc.ts"))).map((f) => f.slice(t.root.length + 1)).sort();
    expect(files).toEqual(["data.json", "lib/base.ts", "lib/deep.mjs", "svc.ts"]);
  });

  it.each([
    ["svc.ts", "--out svc.ts: it is the policy file"],
    ["lib/deep.mjs", "svc.ts imports it"],
    ["./data.json", "svc.ts imports it"],
  ])("refuses %s", async (target, message) => {
    const t = project();
    await expect(checkLocalWrites(t.root, [localWrite(t.root, "--out", target)], undefined)).rejects.toThrow(message);
  });

  it("names the policy --config gives when a target is a file it imports", async () => {
    const t = project();
    await expect(checkLocalWrites(t.root, [localWrite(t.root, "--out", "data.json")], "lib/base.ts")).resolves.toBeUndefined();
    await expect(checkLocalWrites(t.root, [localWrite(t.root, "--out", "lib/deep.mjs")], "lib/base.ts")).rejects.toThrow("--out lib/deep.mjs: lib/base.ts imports it");
  });

  it("lets pull --write replace the policy file itself, never a file it imports", async () => {
    const t = project();
    await expect(checkLocalWrites(t.root, [{ ...localWrite(t.root, "--write", "svc.ts"), replacesPolicy: true }], undefined)).resolves.toBeUndefined();
    await expect(checkLocalWrites(t.root, [{ ...localWrite(t.root, "--write", "lib/base.ts"), replacesPolicy: true }], "lib/base.ts")).resolves.toBeUndefined();
    await expect(checkLocalWrites(t.root, [{ ...localWrite(t.root, "--write", "data.json"), replacesPolicy: true }], undefined)).rejects.toThrow("svc.ts imports it");
  });

  it("accepts a new file and a regular one, and writes atomically with the mode asked for", async () => {
    const t = project();
    const write = localWrite(t.root, "--out", "plan.json");
    await checkLocalWrites(t.root, [write], undefined);
    writeLocalFile(write, "{}\n", { mode: 0o600 });
    expect(readFileSync(t.path("plan.json"), "utf8")).toBe("{}\n");
  });

  it("reports a write that fails after an apply as applied (exit 7), and one before as not", () => {
    const t = project();
    writeFileSync(t.path("blocker"), "");
    const write = localWrite(t.root, "--write-env", "blocker/.env");
    expect(() => writeLocalFile(write, "X=1\n", {}, { applied: "branch main" })).toThrow(/^Applied to branch main; the local file blocker\/\.env was not written: /);
    expect(() => writeLocalFile(write, "X=1\n", {})).toThrow(/^blocker\/\.env was not written: /);
  });
});
