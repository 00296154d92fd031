import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleFunctions, type BundleProgress } from "../../../src/bundle/bundle-many.js";
import type { FileBundler, ResolvedFunction } from "../../../src/model/desired-state.js";
import { BundleError, ErrorCode, isPlatformError } from "../../../src/errors/index.js";
import { fixturePath, functionConfig } from "./function-config.js";

/** A resolved function (no `source`: the entry search fills it). */
function resolved(slug: string, dir: string, bundler: ResolvedFunction["bundler"] = "esbuild"): ResolvedFunction {
  const { source: _entry, ...fn } = functionConfig(slug, fixturePath(dir), { bundler });
  return fn;
}

describe("bundling many functions", () => {
  it("returns every archive by slug and reports progress for each", async () => {
    const events: BundleProgress[] = [];
    const archives = await bundleFunctions(
      [resolved("greet", "ts-npm"), resolved("dir", "dir-entry"), resolved("pre", "prebuilt", "none")],
      { concurrency: 2, onProgress: (e) => events.push(e) },
    );
    expect([...archives.keys()]).toEqual(["greet", "dir", "pre"]);
    for (const [slug, archive] of archives) {
      expect(events).toContainEqual({ slug, phase: "start" });
      expect(events).toContainEqual({ slug, phase: "done", zipBytes: archive.zipBytes, zipSha256: archive.zipSha256 });
    }
  });

  it("finishes the others and collects every failure into one BundleError", async () => {
    const err = await bundleFunctions([
      resolved("broken", "syntax-error"),
      resolved("greet", "ts-npm"),
      resolved("tsonly", "prebuilt-ts", "none"),
      { ...resolved("ghost", "ts-npm"), sourcePath: fixturePath("no-such-function") },
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BundleError);
    const bundleError = err as BundleError;
    expect(bundleError.failures.map((f) => f.slug)).toEqual(["broken", "tsonly", "ghost"]);
    expect(bundleError.message).toMatch(/^Bundling failed for 3 function\(s\):/);
    expect(bundleError.message).toContain("function broken: esbuild could not bundle");
    expect(bundleError.message).toContain("function ghost: source");
  });

  it.each([1, 3])("never runs more than %d bundles at once", async (concurrency) => {
    const total = 10;
    let running = 0;
    let finished = 0;
    let peak = 0;
    // Each bundle waits until as many as allowed are in flight, so the peak is reached.
    const bundler: FileBundler = async () => {
      running++;
      peak = Math.max(peak, running);
      while (running < Math.min(concurrency, total - finished)) await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      finished++;
      return { "index.mjs": "export default 1;" };
    };
    const fns = Array.from({ length: total }, (_, i) => resolved(`f${i}`, "prebuilt", bundler));
    const archives = await bundleFunctions(fns, { concurrency });
    expect(archives.size).toBe(10);
    expect(peak).toBe(concurrency);
  });

  it.each([0, 65, 2.5, Number.NaN])("refuses concurrency %s", async (concurrency) => {
    const err = await bundleFunctions([], { concurrency }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPlatformError(err, ErrorCode.INVALID_OPTIONS)).toBe(true);
    expect((err as Error).message).toContain("concurrency must be an integer from 1 to 64");
  });

  it("uses the bundleFunction option for every function, with the entry filled in", async () => {
    const seen: string[] = [];
    const JSZip = (await import("jszip")).default;
    const archives = await bundleFunctions([resolved("one", "dir-entry"), resolved("two", "prebuilt", "none")], {
      bundleFunction: async (fn) => {
        seen.push(`${fn.slug}:${fn.source.slice(fn.source.lastIndexOf("/") + 1)}`);
        const zip = new JSZip();
        zip.file("index.mjs", `export default ${JSON.stringify(fn.slug)};`);
        return zip.generateAsync({ type: "uint8array" });
      },
    });
    expect(seen.sort()).toEqual(["one:index.ts", "two:index.mjs"]);
    expect(archives.get("one")?.zipSha256).not.toBe(archives.get("two")?.zipSha256);
  });

  it("once its signal aborts, starts no lookup or build, caches nothing and rejects as cancelled", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "svc-abort-"));
    try {
      const controller = new AbortController();
      const events: BundleProgress[] = [];
      const run = bundleFunctions([resolved("greet", "ts-npm"), resolved("dir", "dir-entry")], { cacheDir, signal: controller.signal, onProgress: (e) => events.push(e) });
      controller.abort();
      const err = await run.then(() => undefined, (e: unknown) => e);
      expect(isPlatformError(err, ErrorCode.CANCELLED)).toBe(true);
      expect(events).toEqual([]);
      expect(readdirSync(cacheDir)).toEqual([]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
