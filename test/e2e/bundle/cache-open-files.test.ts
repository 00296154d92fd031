/**
 * The bundle cache's entry writes under a low open-file limit: a cold run stores one entry per
 * function at once, and every entry must still be written (a write refused for want of a file
 * descriptor leaves its archive uncached, to be rebuilt by every later run). The writes run in a
 * child process of the built library with `ulimit -n` lowered, as a user's shell or CI may have it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "../cli/harness.js";

/** Stores `count` held archives at once in the cache at `dir` (argv), through the built ArchiveCache; prints how many stores kept their bytes held (not written). */
const CHILD = `
const [dir, count] = process.argv.slice(1);
const { ArchiveCache, sha256Hex } = await import(${JSON.stringify(join(ROOT, "dist", "bundle", "archive-cache.js"))});
const cache = new ArchiveCache(dir);
const stored = await Promise.all(Array.from({ length: Number(count) }, (_, i) => {
  const zip = new TextEncoder().encode("archive " + i);
  const archive = { zipSha256: sha256Hex(zip), zipBytes: zip.byteLength, unzippedBytes: 1, entries: 1, bytes: { kind: "held", zip } };
  return cache.store("id" + String(i).padStart(4, "0"), [["/src/" + i, "0".repeat(64)]], { archive, warnings: [] });
}));
console.log(stored.filter((s) => s.bytes.kind === "held").length);
`;

let work: string;
beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "svc-cache-fds-"));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("bundle cache entries under a low open-file limit", () => {
  it("writes every one of 300 entries stored at once with 'ulimit -n 128'", async () => {
    const dir = join(work, "cache");
    const script = `ulimit -Sn 128 && ulimit -Hn 128 && exec "${process.execPath}" --input-type=module -e "$0" "$1" "$2"`;
    const { stdout } = await promisify(execFile)("bash", ["-c", script, CHILD, dir, "300"], { cwd: ROOT });
    expect(stdout.trim()).toBe("0");
    expect(readdirSync(join(dir, "v2")).filter((name) => name.endsWith(".entry"))).toHaveLength(300);
    expect(readdirSync(join(dir, "v2")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
