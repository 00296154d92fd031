import { spawn, spawnSync } from "node:child_process";
import { lutimesSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ABANDONED_AFTER_MS, WRITES_UNDER_WAY, removeAbandonedTemporaries, writeAtomicInThreadPool } from "../../../src/bundle/atomic-write.js";
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

/** The id of a process that has exited (a child run to its end). */
function goneProcessId(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("no child process id");
  return pid;
}

/** Writes `name` in `dir` and dates its last change `ageMs` ago (a link's own time, not its target's). */
function leave(dir: string, name: string, ageMs: number, kind: "file" | "link" | "directory" = "file"): void {
  const path = join(dir, name);
  if (kind === "file") writeFileSync(path, "half an entry");
  else if (kind === "directory") mkdirSync(path);
  else symlinkSync(join(dir, "target.txt"), path);
  const at = (Date.now() - ageMs) / 1000;
  (kind === "link" ? lutimesSync : utimesSync)(path, at, at);
}

describe("temporary files a killed writer left", () => {
  const OLD = ABANDONED_AFTER_MS + 60_000;

  it("are removed once a later process writes into the same directory", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const left = `a.entry.${goneProcessId()}.0123abcd.tmp`;
    leave(dir, left, OLD);
    expect(await writeAtomicInThreadPool(dir, join(dir, "b.entry"), bytes("b"))).toBe(true);
    await vi.waitFor(() => expect(readdirSync(dir).sort()).toEqual(["b.entry"]), { timeout: 10_000 });
  });

  it("are kept while their writer may still be writing: a live process's, a recent one's, and this process's own", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      const gone = goneProcessId();
      const kept = [`a.entry.${live.pid}.0123abcd.tmp`, `b.entry.${gone}.0123abcd.tmp`, `c.entry.${process.pid}.0123abcd.tmp`];
      leave(dir, kept[0] ?? "", OLD);
      leave(dir, kept[1] ?? "", ABANDONED_AFTER_MS / 2);
      leave(dir, kept[2] ?? "", OLD);
      leave(dir, `d.entry.${gone}.0123abcd.tmp`, OLD);
      expect(await removeAbandonedTemporaries(dir)).toBe(1);
      expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    } finally {
      live.kill("SIGKILL");
    }
  });

  it("are told apart from what is not theirs: other names, links, directories and process ids 0 are left alone", async () => {
    const tree = tempTree();
    const dir = tree.mkdir("v2");
    writeFileSync(join(dir, "target.txt"), "a user's file");
    const gone = goneProcessId();
    const others = [
      "notes.tmp",
      `a.entry.${gone}.tmp`,
      `a.entry.${gone}.0123ABCD.tmp`,
      `a.entry.${gone}.0123abcd.tmp.bak`,
      "a.entry.0.0123abcd.tmp",
      `.${gone}.0123abcd.tmp`,
      "target.txt",
    ];
    for (const name of others.slice(0, -1)) leave(dir, name, OLD);
    leave(dir, `link.entry.${gone}.0123abcd.tmp`, OLD, "link");
    leave(dir, `dir.entry.${gone}.0123abcd.tmp`, OLD, "directory");
    expect(await removeAbandonedTemporaries(dir)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...others, `link.entry.${gone}.0123abcd.tmp`, `dir.entry.${gone}.0123abcd.tmp`].sort());
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("a user's file");
  });

  it("are not looked for in a directory the writing process made itself, and a missing directory is no error", async () => {
    const tree = tempTree();
    expect(await removeAbandonedTemporaries(tree.path("missing"))).toBe(0);
    const dir = tree.path("cache/v2");
    expect(await writeAtomicInThreadPool(dir, join(dir, "a.entry"), bytes("a"))).toBe(true);
    // Planted after this process made the directory: its sweep is not started again.
    leave(dir, `b.entry.${goneProcessId()}.0123abcd.tmp`, OLD);
    expect(await writeAtomicInThreadPool(dir, join(dir, "c.entry"), bytes("c"))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(dir)).toHaveLength(3);
  });
});
