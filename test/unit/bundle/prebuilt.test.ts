import { cpSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFunctionArchive, type BundleWarning } from "../../../src/bundle/archive.js";
import { buildFunctionBundle } from "../../../src/bundle/index.js";
import { TYPESCRIPT_ONLY_MESSAGE } from "../../../src/bundle/prebuilt.js";
import { BundleError } from "../../../src/errors/index.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { archiveNames, fixturePath, functionConfig, readArchive } from "./function-config.js";

const trees: TempTree[] = [];
afterAll(() => {
  for (const t of trees) t.remove();
});

function tempTree(files: Record<string, string>): TempTree {
  const tree = createTempTree(files);
  trees.push(tree);
  return tree;
}

/** A copy of the prebuilt fixture with a `.git/` folder, which git itself cannot commit. */
function prebuiltCopy(): TempTree {
  const tree = tempTree({});
  cpSync(fixturePath("prebuilt"), tree.root, { recursive: true, verbatimSymlinks: true });
  tree.write(".git/HEAD", "ref: refs/heads/main\n");
  tree.write("lib/.env.local", "NESTED_SECRET=also-must-not-ship\n");
  return tree;
}

async function bundleError(promise: Promise<unknown>): Promise<BundleError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BundleError);
  return err as BundleError;
}

describe('bundler "none"', () => {
  it("ships a prebuilt directory as is, without dot-entries, following symlinks inside it", async () => {
    const tree = prebuiltCopy();
    const zip = await buildFunctionBundle(functionConfig("pre", tree.root, { bundler: "none" }));
    const entries = await readArchive(zip);
    expect(entries.map((e) => e.name)).toEqual([
      "index.mjs",
      "lib-alias/label.mjs",
      "lib/label.mjs",
      "node_modules/left-pad-lite/index.js",
      "node_modules/left-pad-lite/package.json",
    ]);
    const all = entries.map((e) => e.text).join("\n");
    expect(all).not.toContain("must-not-ship");
    expect(all).not.toContain("refs/heads/main");
  });

  it("ships sourcePath (the directory) even when source names its entry file", async () => {
    const dir = fixturePath("prebuilt");
    const zip = await buildFunctionBundle(functionConfig("pre", dir, { bundler: "none", source: join(dir, "index.mjs") }));
    expect(await archiveNames(zip)).toContain("node_modules/left-pad-lite/index.js");
  });

  it.each([["index.mjs"], ["index.js"]])("ships a single %s file at the archive root", async (name) => {
    const tree = tempTree({ [`dist/${name}`]: "export default async () => new Response('ok');\n" });
    const zip = await buildFunctionBundle(functionConfig("one", tree.path(`dist/${name}`), { bundler: "none" }));
    expect(await archiveNames(zip)).toEqual([name]);
  });

  it.each([
    ["a TypeScript-only directory", () => fixturePath("prebuilt-ts"), TYPESCRIPT_ONLY_MESSAGE],
    ["a single index.ts file", () => join(fixturePath("prebuilt-ts"), "index.ts"), TYPESCRIPT_ONLY_MESSAGE],
    [
      "a single file with another name",
      () => tempTree({ "main.mjs": "export default 1;\n" }).path("main.mjs"),
      "ships a single file only when it is named index.mjs or index.js, not main.mjs",
    ],
    [
      "a directory without a root entry",
      () => tempTree({ "lib/index.mjs": "export default 1;\n" }).root,
      "no index.mjs or index.js at the root of",
    ],
    [
      "a directory whose only entry is a dotfile",
      () => tempTree({ ".index.mjs": "export default 1;\n" }).root,
      "no index.mjs or index.js at the root of",
    ],
  ])("refuses %s with a message saying what to do", async (_label, source, message) => {
    const err = await bundleError(buildFunctionBundle(functionConfig("bad", source(), { bundler: "none" })));
    expect(err.failures[0]?.slug).toBe("bad");
    expect(err.failures[0]?.message).toContain(message);
  });

  it("refuses a symlink that escapes the source directory", async () => {
    const outside = tempTree({ "secret.txt": "outside\n" });
    const tree = tempTree({ "index.mjs": "export default 1;\n" });
    symlinkSync(outside.path("secret.txt"), tree.path("leak.txt"));
    const err = await bundleError(buildFunctionBundle(functionConfig("esc", tree.root, { bundler: "none" })));
    expect(err.message).toContain("symlink leak.txt points outside the source directory");
  });

  it("refuses a dangling symlink", async () => {
    const tree = tempTree({ "index.mjs": "export default 1;\n" });
    symlinkSync(tree.path("gone.mjs"), tree.path("lib.mjs"));
    const err = await bundleError(buildFunctionBundle(functionConfig("dang", tree.root, { bundler: "none" })));
    expect(err.message).toContain("symlink lib.mjs is dangling");
  });

  it("skips a symlink cycle with a warning", async () => {
    const tree = tempTree({ "index.mjs": "export default 1;\n", "lib/a.mjs": "export {};\n" });
    symlinkSync("..", tree.path("lib/up"));
    const warnings: BundleWarning[] = [];
    const archive = await buildFunctionArchive(functionConfig("cyc", tree.root, { bundler: "none" }), {
      onWarning: (w) => warnings.push(w),
    });
    expect(await archiveNames(archive.zip)).toEqual(["index.mjs", "lib/a.mjs"]);
    expect(warnings).toEqual([{ slug: "cyc", message: expect.stringContaining("skipped lib/up/") }]);
  });
});
