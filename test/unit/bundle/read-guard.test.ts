/**
 * Bundling reads only regular files of bounded size: a device, a FIFO or a huge file imported by
 * a function (directly or through a symlink) is a `PLATFORM_BUNDLE_FAILED` naming the file,
 * never a read until memory runs out or a wait forever. Real esbuild, real files.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bundleFunctions } from "../../../src/bundle/bundle-many.js";
import { hashRegularFile, readRegularFile } from "../../../src/bundle/read-guard.js";
import { isPlatformError } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { functionConfig } from "./function-config.js";

let tree: TempTree | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  tree?.remove();
  tree = undefined;
});

const IMPORTS = (what: string): string => `import data from "./${what}";\nexport default () => new Response(String(data).length);\n`;

/** Bundles one function from `tree` and returns the error's message (or fails if it bundled). */
async function bundleError(t: TempTree, bundler: "esbuild" | "none" = "esbuild"): Promise<string> {
  const fn = { ...functionConfig("api", t.path("fn"), { bundler }), sourcePath: t.path("fn") };
  const err = await bundleFunctions([fn], { concurrency: 1, workingDir: t.root }).then(() => undefined, (e: unknown) => e);
  expect(isPlatformError(err, "PLATFORM_BUNDLE_FAILED"), String(err)).toBe(true);
  return (err as Error).message;
}

describe("bundling reads only regular files", () => {
  it("refuses an import of a symlink to /dev/zero, naming the device", async () => {
    tree = createTempTree({ "fn/index.mjs": IMPORTS("zero.txt") });
    symlinkSync("/dev/zero", tree.path("fn/zero.txt"));
    expect(await bundleError(tree)).toContain("/dev/zero is a device, not a regular file");
  });

  it("refuses an import of a FIFO instead of waiting for a writer", async () => {
    tree = createTempTree({ "fn/index.mjs": IMPORTS("pipe.txt") });
    execFileSync("mkfifo", [tree.path("fn/pipe.txt")]);
    expect(await bundleError(tree)).toContain("pipe.txt is a FIFO (named pipe), not a regular file");
  });

  it("refuses an imported file over 64 MiB before reading it", async () => {
    tree = createTempTree({ "fn/index.mjs": IMPORTS("huge.txt"), "fn/huge.txt": "" });
    truncateSync(tree.path("fn/huge.txt"), 65 * 1024 * 1024);
    expect(await bundleError(tree)).toContain("huge.txt is 65.0 MiB, over the 64.0 MiB a source file may have");
  });

  it('names a symlink loop in a bundler "none" source as a loop, not as dangling', async () => {
    tree = createTempTree({ "fn/index.mjs": "export default () => new Response('ok');\n" });
    symlinkSync(tree.path("fn/a.js"), tree.path("fn/b.js"));
    symlinkSync(tree.path("fn/b.js"), tree.path("fn/a.js"));
    expect(await bundleError(tree, "none")).toMatch(/symlink [ab]\.js is a loop/);
  });

  it("reads a regular file whole, and refuses one that grows past the cap while it is read", async () => {
    tree = createTempTree({ "small.txt": "hello" });
    expect((await readRegularFile(tree.path("small.txt"))).toString()).toBe("hello");
    await expect(readRegularFile(tree.path("small.txt"), 4)).rejects.toThrow("small.txt is 5 bytes, over the 4 bytes a source file may have");
  });

  it("reads and hashes past the size a file had when it was opened (a /proc file opens at 0 bytes), and refuses it past the cap", async () => {
    const path = "/proc/self/cmdline";
    const content = readFileSync(path);
    expect(content.byteLength).toBeGreaterThan(4);
    expect((await readRegularFile(path)).equals(content)).toBe(true);
    expect(hashRegularFile(path)).toBe(createHash("sha256").update(content).digest("hex"));
    await expect(readRegularFile(path, 4)).rejects.toThrow("cmdline grew past 4 bytes while it was read");
    expect(() => hashRegularFile(path, 4)).toThrow("cmdline grew past 4 bytes while it was read");
  });

  it("reads and hashes files of every size whole: empty, one byte, several 1 MiB chunks", async () => {
    tree = createTempTree({});
    const contents = [Buffer.alloc(0), Buffer.from("x"), Buffer.from(Array.from({ length: 2_621_443 }, (_, i) => (i * 7919) % 251))];
    for (const [i, content] of contents.entries()) {
      const path = tree.path(`file-${i}`);
      writeFileSync(path, content);
      expect((await readRegularFile(path)).equals(content)).toBe(true);
      expect(hashRegularFile(path)).toBe(createHash("sha256").update(content).digest("hex"));
    }
  });

  it("hashes a FIFO's path as a refusal naming it, without waiting for a writer", async () => {
    tree = createTempTree({});
    execFileSync("mkfifo", [tree.path("pipe")]);
    const pipe = tree.path("pipe");
    expect(() => hashRegularFile(pipe)).toThrow("pipe is a FIFO (named pipe), not a regular file");
  });

  it("allocates no more than a small file's size (plus the byte that notices growth) to read or hash it", async () => {
    tree = createTempTree({ "a.ts": "export const a = 1;\n" });
    const alloc = vi.spyOn(Buffer, "alloc");
    await readRegularFile(tree.path("a.ts"));
    hashRegularFile(tree.path("a.ts"));
    const largest = Math.max(...alloc.mock.calls.map(([size]) => size));
    expect(largest).toBeLessThanOrEqual("export const a = 1;\n".length + 1);
  });
});
