import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { buildFunctionArchive } from "../../../src/bundle/archive.js";
import { buildFunctionBundle } from "../../../src/bundle/index.js";
import type { FileBundler } from "../../../src/model/desired-state.js";
import { BundleError } from "../../../src/errors/index.js";
import { archiveNames, fixturePath, functionConfig, readArchive } from "./function-config.js";

async function bundleError(promise: Promise<unknown>): Promise<BundleError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BundleError);
  return err as BundleError;
}

async function loadBadMapBundler(): Promise<FileBundler> {
  const url = new URL("../../../fixtures/functions/custom-bad-map/bundler.mjs", import.meta.url).href;
  const mod = (await import(url)) as { default: FileBundler };
  return mod.default;
}

/** A ZIP as another tool would write it: directory entries, local dates, assorted permissions. */
async function foreignZip(files: Record<string, string>, options: { date: Date; order?: "reverse" }): Promise<Uint8Array> {
  const zip = new JSZip();
  const names = Object.keys(files);
  for (const name of options.order === "reverse" ? names.reverse() : names) {
    zip.file(name, files[name] ?? "", { date: options.date, unixPermissions: 0o100755, createFolders: true });
  }
  return zip.generateAsync({ type: "uint8array", compression: "STORE", comment: "made elsewhere" });
}

const source = fixturePath("custom-bad-map");

describe("custom FileBundler", () => {
  it("refuses a map with unsafe paths and non-file contents, naming each", async () => {
    const bundler = await loadBadMapBundler();
    const err = await bundleError(buildFunctionBundle(functionConfig("custom", source, { bundler })));
    expect(err.failures[0]?.slug).toBe("custom");
    const message = err.failures[0]?.message ?? "";
    expect(message).toContain('path "../escape.js": the path contains a .. segment');
    expect(message).toContain('path "/etc/passwd": the path is absolute');
    expect(message).toContain('path "lib//double.js": the path contains an empty segment');
    expect(message).toContain('path "lib\\windows.js": the path contains a backslash');
    expect(message).toContain('path "data.bin": the content is a number, expected a string or a Uint8Array');
  });

  it("zips a valid map of strings and bytes canonically", async () => {
    const bundler: FileBundler = async (fn) => ({
      "lib/util.js": new TextEncoder().encode(`export const slug = ${JSON.stringify(fn.slug)};`),
      "index.mjs": "export { slug as default } from './lib/util.js';",
    });
    const entries = await readArchive(await buildFunctionBundle(functionConfig("custom", source, { bundler })));
    expect(entries.map((e) => [e.name, e.text])).toEqual([
      ["index.mjs", "export { slug as default } from './lib/util.js';"],
      ["lib/util.js", 'export const slug = "custom";'],
    ]);
  });

  it.each<[string, FileBundler, string]>([
    ["a map without a root entry", async () => ({ "lib/index.mjs": "x" }), "the custom bundler's output has no index.mjs or index.js at its root (found: lib/index.mjs)"],
    ["an array", async () => [] as unknown as Record<string, string>, "the custom bundler returned an array"],
    ["a thrown error", async () => { throw new Error("compiler exploded"); }, "the custom bundler threw: compiler exploded"],
    ["a path that is both a file and a directory", async () => ({ "index.mjs": "x", lib: "x", "lib/a.js": "y" }), '"lib" is both a file and a directory'],
  ])("refuses %s", async (_label, bundler, message) => {
    const err = await bundleError(buildFunctionBundle(functionConfig("custom", source, { bundler })));
    expect(err.failures[0]?.message).toContain(message);
  });
});

describe("bundleFunction option (finished ZIP)", () => {
  const files = { "index.mjs": "export default 1;\n", "lib/a.js": "export const a = 1;\n", "lib/deep/b.js": "export {};\n" };

  it("rewrites a foreign archive canonically, so only content affects the digest", async () => {
    const first = await foreignZip(files, { date: new Date(2024, 5, 1, 12, 30) });
    const second = await foreignZip(files, { date: new Date(2001, 0, 2, 3, 4), order: "reverse" });
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    const a = await buildFunctionArchive(functionConfig("zipped", source), { bundleFunction: async () => first });
    const b = await buildFunctionArchive(functionConfig("zipped", source), { bundleFunction: async () => second });
    expect(a.zipSha256).toBe(b.zipSha256);
    const entries = await readArchive(a.zip);
    expect(entries.map((e) => e.name)).toEqual(["index.mjs", "lib/a.js", "lib/deep/b.js"]);
    expect(entries.every((e) => !e.dir && e.unixPermissions === 0o644)).toBe(true);
  });

  it("gives the same bytes as a custom bundler returning the same files", async () => {
    const zipped = await buildFunctionArchive(functionConfig("same", source), {
      bundleFunction: async () => foreignZip(files, { date: new Date(2020, 1, 1) }),
    });
    const mapped = await buildFunctionArchive(functionConfig("same", source, { bundler: async () => files }));
    expect(zipped.zipSha256).toBe(mapped.zipSha256);
  });

  it.each<[string, () => Promise<Uint8Array>, string]>([
    ["bytes that are not a ZIP", async () => new TextEncoder().encode("not a zip"), "bundleFunction returned bytes that are not a readable ZIP archive"],
    ["a ZIP without a root entry", async () => foreignZip({ "dist/index.mjs": "x" }, { date: new Date(2020, 0, 1) }), "the archive from bundleFunction has no index.mjs or index.js at its root"],
    ["a zip-slip entry", async () => unsafeZip("../evil.js"), 'unsafe entries: "../evil.js" (the path contains a .. segment)'],
    ["an absolute entry", async () => unsafeZip("/etc/cron.d/evil"), 'unsafe entries: "/etc/cron.d/evil" (the path is absolute'],
    ["a symlink entry", async () => symlinkZip(), 'unsafe entries: "link" (a symbolic link)'],
    ["a thrown error", async () => Promise.reject(new Error("upstream build failed")), "bundleFunction threw: upstream build failed"],
    ["a value that is not bytes", async () => "PK" as unknown as Uint8Array, "bundleFunction must resolve to the ZIP bytes as a Uint8Array"],
  ])("refuses %s", async (_label, bundleFunction, message) => {
    const err = await bundleError(buildFunctionArchive(functionConfig("zipped", source), { bundleFunction }));
    expect(err.failures[0]?.slug).toBe("zipped");
    expect(err.failures[0]?.message).toContain(message);
  });

  it("drops directory entries from the canonical archive", async () => {
    const zip = new JSZip();
    zip.folder("lib");
    zip.file("index.mjs", "x");
    zip.file("lib/a.js", "y");
    const bytes = await zip.generateAsync({ type: "uint8array" });
    const archive = await buildFunctionArchive(functionConfig("dirs", source), { bundleFunction: async () => bytes });
    expect(await archiveNames(archive.zip)).toEqual(["index.mjs", "lib/a.js"]);
  });
});

async function unsafeZip(name: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default 1;");
  zip.file(name, "evil", { createFolders: false });
  return zip.generateAsync({ type: "uint8array" });
}

async function symlinkZip(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default 1;");
  zip.file("link", "/etc/passwd", { unixPermissions: 0o120777 });
  return zip.generateAsync({ type: "uint8array", platform: "UNIX" });
}
