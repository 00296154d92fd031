import { afterEach, describe, expect, it, vi } from "vitest";
import type * as Esbuild from "esbuild";
import { buildFunctionArchive } from "../../../src/bundle/archive.js";
import { type ArchiveRef, readArchiveBytes } from "../../../src/bundle/archive-ref.js";
import { bundleFunctions, type BundleProgress } from "../../../src/bundle/bundle-many.js";
import { BundleError } from "../../../src/errors/index.js";
import type { ResolvedFunction } from "../../../src/model/desired-state.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { fixturePath, functionConfig } from "./function-config.js";

const builds = vi.hoisted(() => ({ entries: [] as number[], log: [] as string[] }));

vi.mock("esbuild", async (importOriginal) => {
  const real = await importOriginal<typeof Esbuild>();
  const build = (options: Esbuild.BuildOptions) => {
    const points = options.entryPoints;
    builds.entries.push(Array.isArray(points) ? points.length : Object.keys(points ?? {}).length);
    builds.log.push(`build ${builds.entries.at(-1)}`);
    return real.build(options);
  };
  return { ...real, build, default: { ...real, build } };
});

vi.mock("../../../src/bundle/canonical-zip.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/bundle/canonical-zip.js")>();
  return {
    ...real,
    writeCanonicalZip: (files: Parameters<typeof real.writeCanonicalZip>[0]) => {
      builds.log.push("zip");
      return real.writeCanonicalZip(files);
    },
  };
});

/** The fixtures' parent directory plays the policy directory. */
const WORKING_DIR = fixturePath(".");

function resolved(slug: string, dir: string, sourcemap = false): ResolvedFunction {
  const { source: _entry, ...fn } = functionConfig(slug, fixturePath(dir), { sourcemap });
  return fn;
}

/** Each function built on its own, as before batching: slug → archive bytes. */
async function soloZips(functions: readonly ResolvedFunction[]): Promise<Map<string, Uint8Array>> {
  const { toFunctionConfig } = await import("../../../src/bundle/entry.js");
  const zips = new Map<string, Uint8Array>();
  for (const fn of functions) zips.set(fn.slug, (await buildFunctionArchive(await toFunctionConfig(fn), { workingDir: WORKING_DIR })).zip);
  return zips;
}

/** An archive's bytes as an upload reads them; none for no archive. */
async function bytesOf(archive: ArchiveRef | undefined): Promise<Uint8Array> {
  return archive === undefined ? new Uint8Array() : readArchiveBytes(archive);
}

async function rejection(promise: Promise<unknown>): Promise<BundleError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(BundleError);
  return err as BundleError;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  builds.entries.length = 0;
  builds.log.length = 0;
  for (const clean of cleanups.splice(0)) clean();
});

describe("batched esbuild builds", () => {
  it.each([false, true])("builds functions with the same options in one esbuild call, each archive byte-identical to its solo build (sourcemap %s)", async (sourcemap) => {
    const functions = [resolved("greet", "ts-npm", sourcemap), resolved("dir", "dir-entry", sourcemap), resolved("plain", "prebuilt", sourcemap)];
    const archives = await bundleFunctions(functions, { workingDir: WORKING_DIR });
    expect(builds.entries).toEqual([3]);

    const solo = await soloZips(functions);
    expect(builds.entries).toEqual([3, 1, 1, 1]);
    for (const fn of functions) expect(Buffer.from(await bytesOf(archives.get(fn.slug))).equals(Buffer.from(solo.get(fn.slug) ?? []))).toBe(true);
    expect(new Set([...archives.values()].map((a) => a.zipSha256)).size).toBe(3);
  });

  it("builds functions whose options differ in separate calls, and a shared entry once", async () => {
    const functions = [resolved("a", "ts-npm"), resolved("b", "ts-npm"), resolved("mapped", "dir-entry", true)];
    const archives = await bundleFunctions(functions, { workingDir: WORKING_DIR });
    expect(builds.entries.sort()).toEqual([1, 1]);
    expect(archives.get("a")?.zipSha256).toBe(archives.get("b")?.zipSha256);
    expect(archives.get("b")?.slug).toBe("b");
  });

  it("names the function whose build fails, exactly as a solo build does, and finishes the others", async () => {
    const functions = [resolved("greet", "ts-npm"), resolved("broken", "syntax-error"), resolved("dir", "dir-entry")];
    const events: BundleProgress[] = [];
    const err = await rejection(bundleFunctions(functions, { workingDir: WORKING_DIR, onProgress: (e) => events.push(e) }));
    const { toFunctionConfig } = await import("../../../src/bundle/entry.js");
    const alone = await rejection(buildFunctionArchive(await toFunctionConfig(resolved("broken", "syntax-error")), { workingDir: WORKING_DIR }));
    expect(err.failures).toEqual(alone.failures);
    expect(err.failures[0]?.message).toContain("syntax-error/index.ts:4:");

    const solo = await soloZips([resolved("greet", "ts-npm"), resolved("dir", "dir-entry")]);
    const done = events.filter((e) => e.phase === "done");
    expect(done.map((e) => e.slug).sort()).toEqual(["dir", "greet"]);
    for (const e of done) {
      if (e.phase === "done") expect(e.zipBytes).toBe(solo.get(e.slug)?.byteLength);
    }
  });

  it("builds large functions in batches sized from the first batch's outputs, each archive byte-identical to its solo build", async () => {
    // About 3 MB of output each: the first batch takes 8 entries, then a quarter of the 32 MiB budget holds 2.
    const files: Record<string, string> = {};
    for (let i = 0; i < 14; i++) files[`big${i}/index.ts`] = `const text = "${String(i).padStart(2, "0")}${"abcdefghij".repeat(300_000)}";\nexport default () => new Response(text);\n`;
    const tree = createTempTree(files);
    cleanups.push(() => tree.remove());
    const functions = Array.from({ length: 14 }, (_, i): ResolvedFunction => {
      const { source: _entry, ...rest } = functionConfig(`big${i}`, tree.path(`big${i}`));
      return rest;
    });
    const archives = await bundleFunctions(functions, { workingDir: tree.root });
    expect(builds.entries).toEqual([8, 2, 2, 2]);
    expect([...archives.keys()]).toEqual(functions.map((fn) => fn.slug));

    const { toFunctionConfig } = await import("../../../src/bundle/entry.js");
    for (const fn of [functions[0], functions[9], functions[13]]) {
      if (fn === undefined) continue;
      const solo = await buildFunctionArchive(await toFunctionConfig(fn), { workingDir: tree.root });
      expect(Buffer.from(await bytesOf(archives.get(fn.slug))).equals(Buffer.from(solo.zip))).toBe(true);
    }
  });

  it("starts the batches the first batch's sizes admit before it makes the first batch's archives", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`small${i}/index.ts`] = `export default () => new Response("${i}");\n`;
    const tree = createTempTree(files);
    cleanups.push(() => tree.remove());
    const functions = Array.from({ length: 10 }, (_, i): ResolvedFunction => {
      const { source: _entry, ...rest } = functionConfig(`small${i}`, tree.path(`small${i}`));
      return rest;
    });
    const archives = await bundleFunctions(functions, { workingDir: tree.root, onProgress: (e) => (e.phase === "done" ? builds.log.push(`archive ${e.slug}`) : undefined) });
    expect(builds.entries).toEqual([8, 2]);
    // The second call is made before the first archive is written (deflated and zipped).
    expect(builds.log.slice(0, 3)).toEqual(["build 8", "build 2", "zip"]);
    expect(builds.log.filter((line) => line.startsWith("archive")).sort()).toEqual(functions.map((fn) => `archive ${fn.slug}`).sort());
    expect([...archives.keys()]).toEqual(functions.map((fn) => fn.slug));
  });

  it("reports an esbuild warning for the function whose files it is in, not for its batch mates", async () => {
    const tree = createTempTree({
      "warn/index.ts": "export default () => Response.json({ a: 1, a: 2 });\n",
      "quiet/index.ts": "export default () => new Response('ok');\n",
    });
    cleanups.push(() => tree.remove());
    const fn = (slug: string): ResolvedFunction => {
      const { source: _entry, ...rest } = functionConfig(slug, tree.path(slug));
      return rest;
    };
    const warnings: { slug: string; message: string }[] = [];
    await bundleFunctions([fn("warn"), fn("quiet")], { workingDir: tree.root, onWarning: (w) => warnings.push(w) });
    expect(builds.entries).toEqual([2]);
    expect(warnings).toEqual([{ slug: "warn", message: expect.stringMatching(/^warn\/index\.ts:1:\d+: Duplicate key "a"/) }]);
  });
});
