import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { ArchiveChangedError, type ArchiveRef, heldArchive, materializeArchive, readArchiveBytes } from "../../../src/bundle/archive-ref.js";
import { withArchiveBytes } from "../../../src/bundle/archive-reads.js";
import { ByteBudget } from "../../../src/bundle/byte-budget.js";
import { ErrorCode, isPlatformError } from "../../../src/errors/index.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

/** Stand-in archive bytes (the reader checks sizes and digests, never the ZIP format). */
function archiveOf(slug: string, text: string): ArchiveRef {
  const zip = new Uint8Array(Buffer.from(text));
  return heldArchive({ slug, zip, zipSha256: createHash("sha256").update(zip).digest("hex"), zipBytes: zip.byteLength, unzippedBytes: zip.byteLength, entries: 1 });
}

/** An archive kept by a cache entry file: its record's JSON line, then its bytes. */
function storedArchive(slug = "hello", text = "the planned archive bytes"): { tree: TempTree; archive: ArchiveRef; path: string } {
  const tree = createTempTree();
  cleanups.push(() => tree.remove());
  const path = tree.path("a.entry");
  writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify({ identity: "a" })}\n`), Buffer.from(text)]));
  const { bytes: _held, ...facts } = archiveOf(slug, text);
  return { tree, archive: { ...facts, bytes: { kind: "cache-entry", path } }, path };
}

async function refusal(promise: Promise<unknown>): Promise<ArchiveChangedError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ArchiveChangedError);
  return err as ArchiveChangedError;
}

describe("an archive held by reference", () => {
  it("keeps its bytes in memory without a cache directory, and reads back the planned bytes from its entry with one", async () => {
    const held = archiveOf("hello", "bytes");
    expect(await readArchiveBytes(held)).toBe(held.bytes.kind === "held" ? held.bytes.zip : undefined);

    const { archive } = storedArchive();
    expect(Buffer.from(await readArchiveBytes(archive)).toString()).toBe("the planned archive bytes");
    expect(await materializeArchive(archive)).toEqual({ slug: "hello", zip: expect.any(Uint8Array), zipSha256: archive.zipSha256, zipBytes: 25, unzippedBytes: 25, entries: 1 });
  });

  it("reads the same bytes after the entry is replaced by one with another record and the same archive (a concurrent store), or by a symlink to such a file", async () => {
    const { tree, archive, path } = storedArchive();
    const original = readFileSync(path);
    const zip = original.subarray(original.indexOf(0x0a) + 1);
    writeFileSync(tree.path("other.entry"), Buffer.concat([Buffer.from(`${JSON.stringify({ identity: "another", warnings: ["x"] })}\n`), zip]));
    renameSync(tree.path("other.entry"), path);
    expect(Buffer.from(await readArchiveBytes(archive)).toString()).toBe("the planned archive bytes");

    copyFileSync(path, tree.path("copy.entry"));
    rmSync(path);
    symlinkSync(tree.path("copy.entry"), path);
    expect(Buffer.from(await readArchiveBytes(archive)).toString()).toBe("the planned archive bytes");
  });

  it.each([
    ["truncated", (path: string) => truncateSync(path, readFileSync(path).length - 3), "size", /holds 22 bytes where 25 were planned/],
    ["replaced by other bytes of the same size", (path: string) => writeFileSync(path, Buffer.concat([readFileSync(path).subarray(0, readFileSync(path).indexOf(0x0a) + 1), Buffer.from("THE planned archive bytes")])), "digest", /not the planned ones/],
    ["cut before its record line ends", (path: string) => writeFileSync(path, '{"identity":'), "malformed", /no record line/],
    ["removed", (path: string) => rmSync(path), "unreadable", /ENOENT/],
    ["replaced by a FIFO (refused, never waited on)", (path: string) => (rmSync(path), execFileSync("mkfifo", [path])), "unreadable", /FIFO/],
    ["replaced by a symlink to a device", (path: string) => (rmSync(path), symlinkSync("/dev/zero", path)), "unreadable", /device/],
    // Hostile rows: a directory in its place, and an entry grown (sparse) to 64 GiB: refused by the read guard's size limit, never read.
    ["replaced by a directory", (path: string) => (rmSync(path), mkdirSync(path)), "unreadable", /EISDIR|directory/],
    ["grown to 64 GiB (sparse)", (path: string) => truncateSync(path, 64 * 1024 ** 3), "unreadable", /is 65536\.0 MiB, over the 64\.0 MiB/],
  ] as const)("refuses an entry %s, naming the function, with code PLATFORM_BUNDLE_FAILED", async (_case, change, reason, why) => {
    const { archive, path } = storedArchive();
    change(path);
    const err = await refusal(readArchiveBytes(archive));
    expect(isPlatformError(err, ErrorCode.BUNDLE_FAILED)).toBe(true);
    expect(err.details).toEqual({ slug: "hello", path, reason });
    expect(err.message).toMatch(/^function hello: its planned archive could not be read back/);
    expect(err.message).toMatch(why);
    expect(err.message).toMatch(/Nothing was sent for it/);
  });
  it("reads through a cache directory swapped for a symlink only the planned bytes: another directory's entry of the same name is refused", async () => {
    const { tree, archive, path } = storedArchive();
    const other = createTempTree();
    cleanups.push(() => other.remove());
    writeFileSync(other.path("a.entry"), Buffer.concat([Buffer.from(`${JSON.stringify({ identity: "a" })}\n`), Buffer.from("THE planned archive bytes")]));
    renameSync(tree.root, `${tree.root}.moved`);
    cleanups.push(() => rmSync(`${tree.root}.moved`, { recursive: true, force: true }));
    symlinkSync(other.root, tree.root);
    cleanups.push(() => rmSync(tree.root, { force: true }));
    const err = await refusal(readArchiveBytes(archive));
    expect(err.details).toEqual({ slug: "hello", path, reason: "digest" });
  });
});

describe("archive bytes read for uploads", () => {
  it("never calls the sender when the bytes are not the planned ones, and gives the budget back", async () => {
    const { archive, path } = storedArchive();
    truncateSync(path, 10);
    const budget = new ByteBudget(100);
    let sent = 0;
    await refusal(withArchiveBytes(archive, async () => (sent += 1), budget));
    expect(sent).toBe(0);
    expect(budget.inUse).toBe(0);
  });

  it("holds at most the budget at once, in the order asked; a larger claim goes alone; a failed sender gives its bytes back", async () => {
    const budget = new ByteBudget(10);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const use = (name: string, bytes: number, fail = false) =>
      budget.hold(bytes, () => {
        order.push(`start ${name} (${budget.inUse})`);
        return new Promise<void>((resolve, reject) => gates.set(name, () => (fail ? reject(new Error(name)) : resolve())));
      });
    const a = use("a", 6, true);
    const b = use("b", 6);
    const c = use("c", 3);
    const big = use("big", 25);
    await Promise.resolve();
    expect(order).toEqual(["start a (6)"]);
    gates.get("a")?.();
    await expect(a).rejects.toThrow("a");
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["start a (6)", "start b (9)", "start c (9)"]);
    gates.get("b")?.();
    gates.get("c")?.();
    await Promise.all([b, c]);
    await new Promise((r) => setTimeout(r, 0));
    expect(order.at(-1)).toBe("start big (25)");
    gates.get("big")?.();
    await big;
    expect(budget.inUse).toBe(0);
  });
});
