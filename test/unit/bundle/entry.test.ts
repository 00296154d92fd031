import { afterEach, describe, expect, it, vi } from "vitest";
import { bundleFunctions } from "../../../src/bundle/bundle-many.js";
import { findEntry } from "../../../src/bundle/entry.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

/** Every path `statSync` was called with. */
const stats = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const statSync = ((path: string, ...rest: []) => {
    stats.paths.push(String(path));
    return real.statSync(path, ...rest);
  }) as typeof real.statSync;
  return { ...real, statSync, default: { ...real, statSync } };
});

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

function makeTree(files: Record<string, string>): TempTree {
  tree = createTempTree(files);
  return tree;
}

describe("entry of a directory source", () => {
  it.each<[string, Record<string, string>, string | null]>([
    ["index.ts before index.js and index.mjs", { "index.ts": "", "index.js": "", "index.mjs": "" }, "index.ts"],
    ["index.js before index.mjs", { "index.js": "", "index.mjs": "" }, "index.js"],
    ["index.mjs when it is the only candidate", { "index.mjs": "", "main.ts": "" }, "index.mjs"],
    ["the next candidate when index.ts is a directory", { "index.ts/": "", "index.mjs": "" }, "index.mjs"],
    ["no entry for other names only", { "main.ts": "", "index.cjs": "", "src/index.ts": "" }, null],
  ])("picks %s", async (_label, files, expected) => {
    const t = makeTree(files);
    expect(await findEntry(t.root)).toBe(expected === null ? null : t.path(expected));
  });

  it("uses a file source as its own entry, whatever its name", async () => {
    const t = makeTree({ "handler.ts": "", "index.ts": "" });
    expect(await findEntry(t.path("handler.ts"))).toBe(t.path("handler.ts"));
  });

  it("names a missing source and where relative sources resolve from", async () => {
    const t = makeTree({});
    await expect(findEntry(t.path("nope"))).rejects.toThrow(
      `source ${t.path("nope")} does not exist: check the function's source in the policy (relative paths resolve from the policy file's directory)`,
    );
  });
});

describe("entry lookup cost", () => {
  it("stats the source and each candidate once while bundling a directory source", async () => {
    const t = makeTree({ "fn/index.js": "export default () => new Response('js');\n", "fn/index.mjs": "" });
    stats.paths.length = 0;
    const fn = { slug: "fn", name: "fn", sourcePath: t.path("fn"), env: {}, runtime: "nodejs24" as const, bundler: "esbuild" as const, sourcemap: false, customDomains: [] };
    const archives = await bundleFunctions([fn], { workingDir: t.root });
    expect(archives.get("fn")?.entries).toBe(1);
    expect(stats.paths).toEqual([t.path("fn"), t.path("fn/index.ts"), t.path("fn/index.js")]);
  });

  it.each([
    ["a directory source builds in that directory", { "fn/index.js": "export default () => new Response('js');\n" }, "fn", [""]],
    ["a file source builds in the file's directory", { "fn/handler.js": "export default () => new Response('js');\n" }, "fn/handler.js", []],
  ] as const)("takes esbuild's working directory from the entry search, without asking again: %s", async (_label, files, source, candidates) => {
    const t = makeTree(files);
    stats.paths.length = 0;
    const fn = { slug: "fn", name: "fn", sourcePath: t.path(source), env: {}, runtime: "nodejs24" as const, bundler: "esbuild" as const, sourcemap: false, customDomains: [] };
    const archives = await bundleFunctions([fn], {});
    expect(archives.get("fn")?.entries).toBe(1);
    expect(stats.paths).toEqual([t.path(source), ...candidates.map(() => t.path("fn/index.ts")), ...candidates.map(() => t.path("fn/index.js"))]);
  });
});
