import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as Esbuild from "esbuild";
import { bundleFunctions, type BundleFunctionsOptions } from "../../../src/bundle/bundle-many.js";
import { ArchiveCache, buildIdentity, createFileHasher, esbuildInputHashes, identityTemplate, PendingWrites, type ResolutionPaths } from "../../../src/bundle/archive-cache.js";
import { type ArchiveRef, readArchiveBytes } from "../../../src/bundle/archive-ref.js";
import type { ResolvedFunction } from "../../../src/model/desired-state.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { functionConfig } from "./function-config.js";

const builds = vi.hoisted(() => ({ entries: [] as string[][] }));

vi.mock("esbuild", async (importOriginal) => {
  const real = await importOriginal<typeof Esbuild>();
  const build = (options: Esbuild.BuildOptions) => {
    const points = (options.entryPoints ?? []) as (string | { in: string })[];
    builds.entries.push(points.map((p) => (typeof p === "string" ? p : p.in).split("/").slice(-2).join("/")));
    return real.build(options);
  };
  return { ...real, build, default: { ...real, build } };
});

const loaders = vi.hoisted(() => ({ esbuild: 0, jszip: 0 }));

vi.mock("../../../src/bundle/lazy-modules.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/bundle/lazy-modules.js")>();
  return {
    ...real,
    loadEsbuild: () => (loaders.esbuild++, real.loadEsbuild()),
    loadJszip: () => (loaders.jszip++, real.loadJszip()),
  };
});

/** A project: two esbuild functions sharing an imported module, a prebuilt one, a package.json. */
function project(): TempTree {
  return createTempTree({
    "package.json": JSON.stringify({ name: "app", type: "module" }),
    "shared/greeting.ts": 'export const greeting = (name: string): string => `hello ${name}`;\n',
    "hello/index.ts": 'import { greeting } from "../shared/greeting.js";\nexport default () => new Response(greeting("a"));\n',
    "bye/index.ts": "export default () => new Response('bye', { headers: { a: '1', a: '2' } });\n",
    "static/index.mjs": "export default () => new Response('static');\n",
    "static/data.json": '{"n": 1}\n',
  });
}

function functionsOf(tree: TempTree, sourcemap = false): ResolvedFunction[] {
  return (["hello", "bye", "static"] as const).map((slug) => {
    const { source: _entry, ...fn } = functionConfig(slug, tree.path(slug), { sourcemap, bundler: slug === "static" ? "none" : "esbuild" });
    return fn;
  });
}

/** Each archive's bytes as an upload reads them (checked against its digest), base64. */
async function bytesOf(archives: Map<string, ArchiveRef>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [slug, a] of archives) out[slug] = Buffer.from(await readArchiveBytes(a)).toString("base64");
  return out;
}

/** Rewrites a cache entry from its record's text and its archive's bytes. */
function rewriteEntry(file: string, change: (record: string, zip: Buffer) => [string, Buffer]): void {
  const bytes = readFileSync(file);
  const end = bytes.indexOf(0x0a);
  const [record, zip] = change(bytes.toString("utf8", 0, end), bytes.subarray(end + 1));
  writeFileSync(file, Buffer.concat([Buffer.from(`${record}\n`), zip]));
}

/** SHA-256 hex of `bytes`. */
function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  builds.entries.length = 0;
  for (const clean of cleanups.splice(0)) clean();
});

function setUp(): { tree: TempTree; cacheDir: string; run: (extra?: BundleFunctionsOptions) => Promise<Map<string, ArchiveRef>> } {
  const tree = project();
  cleanups.push(() => tree.remove());
  const cacheDir = tree.path("node_modules/.cache/svc-config");
  const run = (extra: BundleFunctionsOptions = {}) => bundleFunctions(functionsOf(tree), { workingDir: tree.root, cacheDir, ...extra });
  return { tree, cacheDir, run };
}

describe("the content-addressed archive cache", () => {
  it("gives the same bytes cold, warm and without a cache; a warm run builds nothing", async () => {
    const { tree, cacheDir, run } = setUp();
    const uncached = await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root }));
    builds.entries.length = 0;

    loaders.esbuild = 0;
    const cold = await bytesOf(await run());
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
    expect(loaders.esbuild).toBe(1);
    // One file per function: its record and its archive together.
    expect(readdirSync(join(cacheDir, "v2")).map((name) => /^[0-9a-f]{64}\.entry$/.test(name))).toEqual([true, true, true]);

    const warnings: string[] = [];
    loaders.esbuild = 0;
    loaders.jszip = 0;
    const warm = await bytesOf(await run({ onWarning: (w) => warnings.push(`${w.slug}: ${w.message}`) }));
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
    // Not even loaded: a warm no-op plan pays neither esbuild's nor jszip's import.
    expect(loaders).toEqual({ esbuild: 0, jszip: 0 });
    expect(cold).toEqual(uncached);
    expect(warm).toEqual(uncached);
    // A hit replays the warnings its build gave.
    expect(warnings).toEqual([expect.stringMatching(/^bye: bye\/index\.ts:1:\d+: Duplicate key "a"/)]);
  });

  it("rebuilds only the function whose imported module was edited behind it, to the bytes a fresh build gives", async () => {
    const { tree, run } = setUp();
    const before = await bytesOf(await run());
    tree.write("shared/greeting.ts", 'export const greeting = (name: string): string => `hi ${name}`;\n');
    builds.entries.length = 0;

    const after = await bytesOf(await run());
    expect(builds.entries).toEqual([["hello/index.ts"]]);
    expect(after.hello).not.toBe(before.hello);
    expect(after.bye).toBe(before.bye);
    expect(after).toEqual(await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root })));
  });

  it("rebuilds when a package.json above an input changes, and a prebuilt function when a shipped file changes", async () => {
    const { tree, run } = setUp();
    const before = await bytesOf(await run());
    tree.write("package.json", JSON.stringify({ name: "app", type: "module", sideEffects: false }));
    tree.write("static/data.json", '{"n": 2}\n');
    builds.entries.length = 0;

    const after = await bytesOf(await run());
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
    expect(after.static).not.toBe(before.static);
    expect(after).toEqual(await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root })));
  });

  it("rebuilds when a tsconfig.json appears where none was, and when an imported module is replaced by a FIFO (a miss, never a wait)", async () => {
    const { tree, run } = setUp();
    await run();
    tree.write("hello/tsconfig.json", JSON.stringify({ compilerOptions: { target: "es2022" } }));
    builds.entries.length = 0;
    await run();
    expect(builds.entries).toEqual([["hello/index.ts"]]);

    rmSync(tree.path("shared/greeting.ts"));
    execFileSync("mkfifo", [tree.path("shared/greeting.ts")]);
    builds.entries.length = 0;
    const err = await run().then(() => undefined, (e: unknown) => e);
    expect(String(err)).toContain("greeting.ts is a FIFO (named pipe), not a regular file");
    expect(builds.entries).toEqual([["hello/index.ts"]]);
  });

  it.each([
    ["a truncated archive", (file: string) => truncateSync(file, statSync(file).size - 10)],
    ["an entry cut inside its record", (file: string) => truncateSync(file, 10)],
    ["an archive with other bytes", (file: string) => rewriteEntry(file, (record, zip) => [record, Buffer.from(zip).reverse()])],
    ["entries that are not JSON", (file: string) => rewriteEntry(file, (_record, zip) => ["{not json", zip])],
    ["entries of the wrong shape", (file: string) => rewriteEntry(file, (_record, zip) => [JSON.stringify({ inputs: [], zipSha256: 1 }), zip])],
    ["entries of the older layout (inputs keyed by path)", (file: string) => rewriteEntry(file, (record, zip) => {
      const entry = JSON.parse(record) as { inputs: [string, string | null][] };
      return [JSON.stringify({ ...entry, inputs: Object.fromEntries(entry.inputs) }), zip];
    })],
    ["entries that list one input twice in place of another (the count still matches)", (file: string) => rewriteEntry(file, (record, zip) => {
      const entry = JSON.parse(record) as { inputs: [string, string | null][] };
      const [first] = entry.inputs;
      return [first === undefined ? record : JSON.stringify({ ...entry, inputs: [...entry.inputs.slice(0, -1), first] }), zip];
    })],
    ["entries whose inputs are not pairs of a path and a hash", (file: string) => rewriteEntry(file, (record, zip) => {
      const entry = JSON.parse(record) as { inputs: [string, string | null][] };
      return [JSON.stringify({ ...entry, inputs: entry.inputs.map(([path]) => [path, 1]) }), zip];
    })],
    ["entries replaced by FIFOs (read without waiting for a writer)", (file: string) => {
      rmSync(file);
      execFileSync("mkfifo", [file]);
    }],
  ])("ignores %s and rebuilds it, with the same bytes", async (_label, corrupt) => {
    const { cacheDir, run } = setUp();
    const cold = await bytesOf(await run());
    for (const name of readdirSync(join(cacheDir, "v2"))) corrupt(join(cacheDir, "v2", name));
    builds.entries.length = 0;

    expect(await bytesOf(await run())).toEqual(cold);
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
    builds.entries.length = 0;
    expect(await bytesOf(await run())).toEqual(cold);
    expect(builds.entries).toEqual([]);
  });

  it("ignores entries moved under other functions' identities (valid entries rotated) and rebuilds every one", async () => {
    const { cacheDir, run } = setUp();
    const cold = await bytesOf(await run());
    const files = readdirSync(join(cacheDir, "v2")).map((name) => join(cacheDir, "v2", name));
    const contents = files.map((file) => readFileSync(file));
    for (const [i, file] of files.entries()) writeFileSync(file, contents[(i + 1) % contents.length] as Buffer);
    builds.entries.length = 0;

    expect(await bytesOf(await run())).toEqual(cold);
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
  });

  it("keeps source-map builds apart from plain ones", async () => {
    const { tree, cacheDir } = setUp();
    const plain = await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root, cacheDir }));
    const mapped = await bytesOf(await bundleFunctions(functionsOf(tree, true), { workingDir: tree.root, cacheDir }));
    expect(mapped.hello).not.toBe(plain.hello);
    expect(builds.entries).toHaveLength(2);
    expect(mapped).toEqual(await bytesOf(await bundleFunctions(functionsOf(tree, true), { workingDir: tree.root })));
  });

  it("writes nothing without a cache directory, and builds through an unwritable one", async () => {
    const { tree, run } = setUp();
    await bundleFunctions(functionsOf(tree), { workingDir: tree.root });
    expect(readdirSync(tree.root).sort()).toEqual(["bye", "hello", "package.json", "shared", "static"]);

    tree.write("blocked", "a file where the cache directory would be");
    const archives = await run({ cacheDir: tree.path("blocked/cache") });
    expect(archives.size).toBe(3);
    // Not written: each keeps its bytes in memory.
    expect([...archives.values()].map((a) => a.bytes.kind)).toEqual(["held", "held", "held"]);
  });

  it("keeps each archive by its entry file with a directory, cold and warm, and holds the bytes without one", async () => {
    const { tree, cacheDir, run } = setUp();
    const where = (archives: Map<string, ArchiveRef>) => [...archives.values()].map((a) => (a.bytes.kind === "cache-entry" ? a.bytes.path.startsWith(join(cacheDir, "v2")) : a.bytes.kind));
    expect(where(await run())).toEqual([true, true, true]);
    expect(where(await run())).toEqual([true, true, true]);
    expect(where(await bundleFunctions(functionsOf(tree), { workingDir: tree.root }))).toEqual(["held", "held", "held"]);
  });

  it("has every entry complete on disk and no temporary file left when a cold run returns", async () => {
    const { cacheDir, run } = setUp();
    const cold = await run();
    const names = readdirSync(join(cacheDir, "v2")).sort();
    expect(names).toHaveLength(3);
    expect(names.every((name) => name.endsWith(".entry"))).toBe(true);
    for (const archive of cold.values()) {
      expect(archive.bytes.kind).toBe("cache-entry");
      expect(statSync(archive.bytes.kind === "cache-entry" ? archive.bytes.path : "").isFile()).toBe(true);
    }
    expect(await bytesOf(cold)).toEqual(await bytesOf(await run()));
  });

  it("reads no entry from a directory another run creates after the cache was made (a miss, never a wrong archive), and reads them once it exists", async () => {
    const { tree, cacheDir, run } = setUp();
    const expected = await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root }));
    const madeCold = new ArchiveCache(cacheDir);
    // Another run creates the directory and fills it meanwhile.
    await run();
    const files = readdirSync(join(cacheDir, "v2")).map((name) => join(cacheDir, "v2", name));
    expect(files).toHaveLength(3);
    const identities = files.map((file) => file.slice(file.lastIndexOf("/") + 1).replace(/\.entry$/, ""));
    for (const identity of identities) expect(await madeCold.lookup(identity, async () => true)).toBeUndefined();
    const madeWarm = new ArchiveCache(cacheDir);
    for (const identity of identities) expect((await madeWarm.lookup(identity, async () => true))?.archive.bytes.kind).toBe("cache-entry");
    // A run whose cache was made before the directory existed builds every function, to the same bytes.
    rmSync(cacheDir, { recursive: true, force: true });
    builds.entries.length = 0;
    expect(await bytesOf(await run())).toEqual(expected);
    expect(builds.entries).toEqual([["hello/index.ts", "bye/index.ts"]]);
  });

  it("keeps an archive's bytes when its entry cannot be written, and by its entry once written", async () => {
    const tree = project();
    cleanups.push(() => tree.remove());
    tree.write("blocked", "a file where the cache directory would be");
    const zip = new Uint8Array([1, 2, 3]);
    const archive: ArchiveRef = { slug: "first", zipSha256: "0".repeat(64), zipBytes: 3, unzippedBytes: 3, entries: 1, bytes: { kind: "held", zip } };
    const unwritable = await new ArchiveCache(tree.path("blocked/cache")).store("d".repeat(64), [], { archive, warnings: [] });
    expect(unwritable.bytes).toEqual({ kind: "held", zip });
    const written = await new ArchiveCache(tree.path("cache")).store("d".repeat(64), [], { archive, warnings: ["w"] });
    expect(written.bytes).toEqual({ kind: "cache-entry", path: tree.path(`cache/v2/${"d".repeat(64)}.entry`) });
    const entry = readFileSync(tree.path(`cache/v2/${"d".repeat(64)}.entry`));
    expect([...entry.subarray(entry.indexOf(0x0a) + 1)]).toEqual([1, 2, 3]);
  });

  it("returns a run's archives before their entries are written when it is given pending writes: sent from memory until written, from the entry after", async () => {
    const { tree, cacheDir, run } = setUp();
    const expected = await bytesOf(await bundleFunctions(functionsOf(tree), { workingDir: tree.root }));
    const pending = new PendingWrites();
    const archives = await run({ pendingWrites: pending });
    // Every archive is being written: its bytes are held until its entry is complete.
    expect([...archives.values()].map((a) => a.bytes.kind)).toEqual(["writing", "writing", "writing"]);
    expect(await bytesOf(archives)).toEqual(expected);
    await pending.settled();
    const names = readdirSync(join(cacheDir, "v2"));
    expect(names.filter((name) => name.endsWith(".entry"))).toHaveLength(3);
    expect(names.filter((name) => !name.endsWith(".entry"))).toEqual([]);
    for (const archive of archives.values()) {
      if (archive.bytes.kind !== "writing") throw new Error("not a pending write");
      expect(archive.bytes.held.zip).toBeUndefined();
      expect(statSync(archive.bytes.path).isFile()).toBe(true);
    }
    // Read back from the entries now, checked against the planned digests; a warm run hits them.
    expect(await bytesOf(archives)).toEqual(expected);
    builds.entries.length = 0;
    expect(await bytesOf(await run())).toEqual(expected);
    expect(builds.entries).toEqual([]);
  });

  it("keeps an archive's bytes for good when its pending write fails, and refuses a changed entry once the bytes are released", async () => {
    const tree = project();
    cleanups.push(() => tree.remove());
    tree.write("blocked", "a file where the cache directory would be");
    const zip = new Uint8Array([1, 2, 3]);
    const archive: ArchiveRef = { slug: "first", zipSha256: sha256(zip), zipBytes: 3, unzippedBytes: 3, entries: 1, bytes: { kind: "held", zip } };
    const failing = new PendingWrites();
    const unwritable = await new ArchiveCache(tree.path("blocked/cache"), new Map(), failing).store("d".repeat(64), [], { archive, warnings: [] });
    await failing.settled();
    expect(unwritable.bytes).toMatchObject({ kind: "writing", held: { zip } });
    expect([...(await readArchiveBytes({ slug: "first", ...unwritable }))]).toEqual([1, 2, 3]);
    const pending = new PendingWrites();
    const written = await new ArchiveCache(tree.path("cache"), new Map(), pending).store("d".repeat(64), [], { archive, warnings: [] });
    await pending.settled();
    expect(written.bytes).toMatchObject({ kind: "writing", path: tree.path(`cache/v2/${"d".repeat(64)}.entry`), held: { zip: undefined } });
    expect([...(await readArchiveBytes({ slug: "first", ...written }))]).toEqual([1, 2, 3]);
    rewriteEntry(tree.path(`cache/v2/${"d".repeat(64)}.entry`), (record) => [record, Buffer.from([1, 2, 4])]);
    await expect(readArchiveBytes({ slug: "first", ...written })).rejects.toMatchObject({ code: "PLATFORM_BUNDLE_FAILED", details: { reason: "digest" } });
  });

  it("settles pending writes only when every write has ended, those added while it waits included", async () => {
    const pending = new PendingWrites();
    const ended: string[] = [];
    let endLate: () => void = () => undefined;
    const late = new Promise<void>((resolve) => (endLate = resolve)).then(() => ended.push("late"));
    pending.add(
      new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => {
        ended.push("first");
        // A write that starts while `settled` waits for the first (a store finishing in the meantime).
        pending.add(late);
        setTimeout(endLate, 20);
      }),
    );
    await pending.settled();
    expect(ended).toEqual(["first", "late"]);
    // Nothing pending: settles at once, and again after.
    await new PendingWrites().settled();
    await pending.settled();
  });

  it("keeps no slug with a stored archive, so two functions sharing a build each get their own", async () => {
    const cache = new ArchiveCache(undefined);
    const zip = new Uint8Array([1, 2, 3]);
    const archive: ArchiveRef = { slug: "first", zipSha256: "0".repeat(64), zipBytes: 3, unzippedBytes: 3, entries: 1, bytes: { kind: "held", zip } };
    const stored = await cache.store("c".repeat(64), [], { archive, warnings: [] });
    expect(stored).not.toHaveProperty("slug");
    expect((await cache.lookup("c".repeat(64), async () => true))?.archive).not.toHaveProperty("slug");
  });
});

describe("build identities made from a template", () => {
  const values = ["/srv/app/functions/api/index.ts", 'a "quoted" \\ path', "é/ü/漢字", "\u2028\u2029", "", "\u0000"];

  it("are the identities of the whole parts, for any value spliced in", () => {
    const partsWith = (entry: string) => ({ bundler: "esbuild", options: { entryPoints: [entry], absWorkingDir: "/srv/app" }, staged: [["pkg", "1.0.0"]] });
    const identityOf = identityTemplate(partsWith);
    for (const value of values) expect(identityOf(value)).toBe(buildIdentity(partsWith(value)));
    expect(new Set(values.map(identityOf)).size).toBe(values.length);
  });

  it("are the identities of the whole parts when the value appears twice or not at all", () => {
    const twice = (entry: string) => ({ entryPoints: [entry], outfile: entry });
    const never = (_entry: string) => ({ entryPoints: ["fixed"] });
    for (const value of values) {
      expect(identityTemplate(twice)(value)).toBe(buildIdentity(twice(value)));
      expect(identityTemplate(never)(value)).toBe(buildIdentity(never(value)));
    }
  });
});

describe("an esbuild archive's input list", () => {
  it("records every input and the package.json, tsconfig.json and jsconfig.json of every directory above one, the same with a run's shared directory lists", async () => {
    const tree = project();
    cleanups.push(() => tree.remove());
    const inputs = [tree.path("hello/index.ts"), tree.path("shared/greeting.ts")];
    const above: ResolutionPaths = new Map();
    const fresh = await esbuildInputHashes(inputs, createFileHasher());
    const shared = await esbuildInputHashes(inputs, createFileHasher(), above);
    // A second function in a sibling directory takes the lists of the directories it shares.
    await esbuildInputHashes([tree.path("bye/index.ts")], createFileHasher(), above);
    const again = await esbuildInputHashes(inputs, createFileHasher(), above);
    expect(shared).toEqual(fresh);
    expect(again).toEqual(fresh);
    const paths = fresh.map(([path]) => path);
    expect(paths).toEqual([...paths].sort());
    for (let dir = tree.path("hello"); ; dir = join(dir, "..")) {
      for (const name of ["package.json", "tsconfig.json", "jsconfig.json"]) expect(paths).toContain(join(dir, name));
      if (join(dir, "..") === dir) break;
    }
    expect(fresh.find(([path]) => path === tree.path("package.json"))?.[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.find(([path]) => path === tree.path("tsconfig.json"))?.[1]).toBeNull();
    expect(above.get(tree.path("bye"))?.slice(3)).toEqual(above.get(tree.root));
  });
});
