import { createCipheriv } from "node:crypto";
import { truncateSync, writeFileSync } from "node:fs";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { buildFunctionArchive } from "../../../src/bundle/archive.js";
import { type BundleError, ErrorCode, isPlatformError } from "../../../src/errors/index.js";
import { ZIP_LIMITS } from "../../../src/rules/zip-entries.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { fixturePath, functionConfig } from "./function-config.js";

const MiB = 1024 * 1024;
const trees: TempTree[] = [];
afterAll(() => {
  for (const t of trees) t.remove();
});

/** Incompressible but deterministic bytes (AES-CTR keystream of a fixed key). */
function noise(bytes: number, seed: number): Buffer {
  const key = Buffer.alloc(16, seed);
  return createCipheriv("aes-128-ctr", key, Buffer.alloc(16)).update(Buffer.alloc(bytes));
}

async function bundleError(promise: Promise<unknown>): Promise<BundleError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isPlatformError(err, ErrorCode.BUNDLE_FAILED)).toBe(true);
  return err as BundleError;
}

const entry = "export default async () => new Response('big');\n";

describe("archive limits on every bundling path", () => {
  it("refuses an archive over 10 MiB zipped and names the five largest files", async () => {
    const tree = createTempTree({ "index.mjs": entry });
    trees.push(tree);
    const sizes = { "assets/a.bin": 2.5, "assets/b.bin": 2.4, "c.bin": 2.3, "assets/d.bin": 2.2, "e.bin": 2.1, "small.bin": 0.5 };
    let seed = 1;
    for (const [path, mib] of Object.entries(sizes)) {
      tree.mkdir(path.includes("/") ? "assets" : ".");
      writeFileSync(tree.path(path), noise(Math.round(mib * MiB), seed++));
    }
    const err = await bundleError(buildFunctionArchive(functionConfig("big", tree.root, { bundler: "none" })));
    const failure = err.failures[0];
    expect(failure?.slug).toBe("big");
    expect(failure?.message).toMatch(/^the archive is 12\.\d MiB \(limit 10 MiB\)\. Largest files: assets\/a\.bin \(2\.5 MiB\), /);
    expect(failure?.largestFiles?.map((f) => f.path)).toEqual(["assets/a.bin", "assets/b.bin", "c.bin", "assets/d.bin", "e.bin"]);
    expect(failure?.largestFiles?.[0]?.bytes).toBe(Math.round(2.5 * MiB));
    expect(err.message).toContain("function big: the archive is");
  });

  it("refuses a prebuilt directory over 64 MiB uncompressed without reading it", async () => {
    const tree = createTempTree({ "index.mjs": entry, "huge.bin": "", "large.bin": "" });
    trees.push(tree);
    truncateSync(tree.path("huge.bin"), 40 * MiB);
    truncateSync(tree.path("large.bin"), 30 * MiB);
    const err = await bundleError(buildFunctionArchive(functionConfig("huge", tree.root, { bundler: "none" })));
    expect(err.failures[0]?.message).toContain("the files total 70.0 MiB uncompressed (limit 64 MiB)");
    expect(err.failures[0]?.largestFiles?.map((f) => f.path)).toEqual(["huge.bin", "large.bin", "index.mjs"]);
  });

  it("refuses a custom bundler's output over 64 MiB uncompressed", async () => {
    const bundler = async () => ({ "index.mjs": entry, "zeros.bin": new Uint8Array(ZIP_LIMITS.maxUnzippedBytes + 1) });
    const err = await bundleError(buildFunctionArchive(functionConfig("zeros", fixturePath("prebuilt"), { bundler })));
    expect(err.failures[0]?.message).toContain("uncompressed (limit 64 MiB)");
    expect(err.failures[0]?.largestFiles?.[0]?.path).toBe("zeros.bin");
  });

  it("refuses more than 4096 entries from a custom bundler", async () => {
    const bundler = async () => {
      const files: Record<string, string> = { "index.mjs": entry };
      for (let i = 0; i < ZIP_LIMITS.maxEntries; i++) files[`many/f${i}.js`] = "";
      return files;
    };
    const err = await bundleError(buildFunctionArchive(functionConfig("many", fixturePath("prebuilt"), { bundler })));
    expect(err.failures[0]?.message).toContain("the archive has 4097 entries (limit 4096)");
  });

  it("refuses more than 4096 files in a prebuilt directory", async () => {
    const tree = createTempTree({ "index.mjs": entry });
    trees.push(tree);
    tree.mkdir("many");
    for (let i = 0; i < ZIP_LIMITS.maxEntries; i++) writeFileSync(tree.path(`many/f${i}.js`), "");
    const err = await bundleError(buildFunctionArchive(functionConfig("many", tree.root, { bundler: "none" })));
    expect(err.failures[0]?.message).toContain("more than 4096 files (limit 4096 entries)");
  });

  it("refuses a finished ZIP that decompresses past 64 MiB, counting real bytes", async () => {
    const zip = new JSZip();
    zip.file("index.mjs", entry);
    zip.file("bomb-1.bin", new Uint8Array(33 * MiB));
    zip.file("bomb-2.bin", new Uint8Array(33 * MiB));
    const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    expect(bytes.byteLength).toBeLessThan(MiB);
    const err = await bundleError(
      buildFunctionArchive(functionConfig("bomb", fixturePath("prebuilt")), { bundleFunction: async () => bytes }),
    );
    expect(err.failures[0]?.message).toContain("uncompressed (limit 64 MiB), counted while decompressing");
  });

  it("accepts an archive just under the limits", async () => {
    const bundler = async () => ({ "index.mjs": entry, "noise.bin": noise(9 * MiB, 7) });
    const archive = await buildFunctionArchive(functionConfig("fits", fixturePath("prebuilt"), { bundler }));
    expect(archive.zipBytes).toBeGreaterThan(9 * MiB);
    expect(archive.zipBytes).toBeLessThanOrEqual(ZIP_LIMITS.maxZipBytes);
    expect(archive.entries).toBe(2);
  });
});
