import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WRITES_UNDER_WAY, writeAtomicInThreadPool } from "../../../src/bundle/atomic-write.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const trees: TempTree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.remove();
});

function tempTree(): TempTree {
  const tree = createTempTree();
  trees.push(tree);
  return tree;
}

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

describe("files written through the thread pool", () => {
  it("are complete under their name when the write resolves, with no temporary file left", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const paths = Array.from({ length: 50 }, (_, i) => join(dir, `${i}.entry`));
    const written = await Promise.all(paths.map((path, i) => writeAtomicInThreadPool(dir, path, bytes(`entry ${i}\n`.repeat(200)))));
    expect(written.every(Boolean)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(paths.map((path) => path.slice(dir.length + 1)).sort());
    for (const [i, path] of paths.entries()) expect(readFileSync(path, "utf8")).toBe(`entry ${i}\n`.repeat(200));
  });

  it("beyond the writes under way at once, wait their turn and all complete, failed ones freeing their turn too", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const count = WRITES_UNDER_WAY * 4 + 5; // more failures than turns: a failed write that kept its turn would stall the rest
    // Every fourth write names a directory that cannot be made (a file stands in its place): it fails, and the rest still run.
    writeFileSync(tree.path("file"), "x");
    const blocked = tree.path("file/v2");
    const written = await Promise.all(Array.from({ length: count }, (_, i) => (i % 4 === 3 ? writeAtomicInThreadPool(blocked, join(blocked, `${i}.entry`), bytes("no")) : writeAtomicInThreadPool(dir, join(dir, `${i}.entry`), bytes(`entry ${i}`)))));
    expect(written).toEqual(Array.from({ length: count }, (_, i) => i % 4 !== 3));
    expect(readdirSync(dir)).toHaveLength(count - Math.floor((count + 1) / 4));
    expect(await writeAtomicInThreadPool(dir, join(dir, "after.entry"), bytes("after"))).toBe(true);
  });

  it("answer false, never reject, for a path Node refuses outright (a NUL byte), and give their turn back", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const refused = await Promise.all(Array.from({ length: WRITES_UNDER_WAY + 3 }, (_, i) => writeAtomicInThreadPool(dir, join(dir, `bad\u0000${i}.entry`), bytes("x"))));
    expect(refused.every((written) => written === false)).toBe(true);
    expect(await writeAtomicInThreadPool(dir, join(dir, "good.entry"), bytes("good"))).toBe(true);
    expect(readdirSync(dir)).toEqual(["good.entry"]);
  });

  it("make a missing directory, as the writes on the calling thread do", async () => {
    const tree = tempTree();
    const dir = tree.path("cache/v2");
    expect(await writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("a"))).toBe(true);
    expect(readFileSync(join(dir, "a.entry"), "utf8")).toBe("a");
  });

  it("replace an entry another writer left under the same name, whole", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    writeFileSync(join(dir, "a.entry"), "old");
    const both = await Promise.all([writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("new")), writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("new"))]);
    expect(both).toEqual([true, true]);
    expect(readdirSync(dir)).toEqual(["a.entry"]);
    expect(readFileSync(join(dir, "a.entry"), "utf8")).toBe("new");
  });

  it("resolve false and leave nothing when the directory cannot be made or written", async () => {
    const tree = tempTree();
    tree.write("blocked", "a file where the directory would be");
    const dir = tree.path("blocked/v2");
    expect(await writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("a"))).toBe(false);
    expect(readFileSync(tree.path("blocked"), "utf8")).toBe("a file where the directory would be");

    // A name taken by a directory: the rename fails, and the temporary file is removed.
    const v2 = tree.mkdir("v2");
    mkdirSync(join(v2, "b.entry"));
    writeFileSync(join(v2, "b.entry", "inside"), "x");
    expect(await writeAtomicInThreadPool(v2, join(v2, "b.entry"), bytes("b"))).toBe(false);
    expect(readdirSync(v2)).toEqual(["b.entry"]);
  });

  it("never write through a symlink left at the final name: the rename replaces the link itself", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const target = tree.write("elsewhere.txt", "untouched");
    symlinkSync(target, join(dir, "a.entry"));
    expect(await writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("entry"))).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("untouched");
    expect(readFileSync(join(dir, "a.entry"), "utf8")).toBe("entry");
  });
});
