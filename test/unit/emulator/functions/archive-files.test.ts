/** Writing a deployment's archive to disk for its process: hostile archives never reach outside the directory. */
import { existsSync, lstatSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { ArchiveExtractError, checkStoredArchive, extractArchive } from "../../../../src/emulator/functions/archive-files.js";
import { rawZip } from "../../../helpers/raw-zip.js";
import { createTempTree } from "../../../helpers/temp-dir.js";

const LIMITS = { entries: 16, unzippedBytes: 1024 };
const tree = createTempTree();
afterAll(() => tree.remove());
let n = 0;
const fresh = (): string => tree.path(`out-${n++}`);

/** A ZIP with these raw entry names (kept as written) and options. */
async function zipWith(entries: { name: string; content?: string; symlink?: boolean; dir?: boolean }[]): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const e of entries) {
    if (e.dir === true) zip.folder(e.name);
    else zip.file(e.name, e.content ?? "x", { createFolders: false, ...(e.symlink === true ? { unixPermissions: 0o120777 } : {}) });
  }
  return zip.generateAsync({ type: "uint8array", platform: "UNIX", compression: "DEFLATE" });
}

describe("extracting a deployment archive", () => {
  it("writes the files under a new directory and returns the entry module (index.mjs before index.js)", async () => {
    const dir = fresh();
    const entry = await extractArchive(await zipWith([{ name: "index.js", content: "js" }, { name: "index.mjs", content: "mjs" }, { name: "lib/util.mjs", content: "u" }, { name: "assets/", dir: true }]), dir, LIMITS);
    expect(entry).toBe(join(dir, "index.mjs"));
    expect(readFileSync(join(dir, "lib", "util.mjs"), "utf8")).toBe("u");
    expect(lstatSync(join(dir, "assets")).isDirectory()).toBe(true);
  });

  it.each([
    ["a parent-directory entry", [{ name: "../escape.mjs" }], "contains a .. segment"],
    ["a nested parent-directory entry", [{ name: "lib/../../escape.mjs" }], "contains a .. segment"],
    ["an absolute path", [{ name: "/etc/evil" }], "absolute"],
    ["a backslash path", [{ name: "..\\evil.mjs" }], "backslash"],
    ["a drive letter", [{ name: "C:/evil.mjs" }], "drive letter"],
    ["a control character", [{ name: "index\n.mjs" }], "control character"],
    ["a symlink entry", [{ name: "index.mjs" }, { name: "link.mjs", symlink: true }], "symbolic link"],
    ["a file under a file", [{ name: "index.mjs" }, { name: "index.mjs/inner.js" }], "names it twice or under a file"],
    ["too many entries", Array.from({ length: 17 }, (_, i) => ({ name: `f${i}.js` })), "17 entries (limit 16)"],
    ["a file bigger than the limit once decompressed", [{ name: "index.mjs", content: "a".repeat(2000) }], "expands to more than 1024 bytes"],
    ["no entry module", [{ name: "main.mjs" }], "no index.mjs or index.js"],
  ])("refuses %s and leaves nothing behind", async (_what, entries, message) => {
    const dir = fresh();
    const attempt = extractArchive(await zipWith(entries), dir, LIMITS);
    await expect(attempt).rejects.toBeInstanceOf(ArchiveExtractError);
    await expect(attempt).rejects.toThrow(message);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(tree.path("escape.mjs"))).toBe(false);
  });

  it.each([
    ["a central name with .. over a safe local name", rawZip([{ name: "index.mjs", data: "1" }, { name: "lib/x.mjs", centralName: "../x.mjs", data: "2" }]), 'archive entry "../x.mjs" is named "lib/x.mjs" in its local header'],
    ["one name given twice", rawZip([{ name: "index.mjs", data: "1" }, { name: "index.mjs", data: "2" }]), 'archive entry "index.mjs" appears more than once'],
    ["a directory named with ..", rawZip([{ name: "index.mjs", data: "1" }, { name: "../up/" }]), 'archive entry "../up/" is unsafe'],
  ])("refuses %s before writing anything, as at upload", async (_label, bytes, message) => {
    const dir = fresh();
    await expect(extractArchive(bytes, dir, LIMITS)).rejects.toThrow(message);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(tree.path("up"))).toBe(false);
  });

  it("checks a stored archive against the deployed digest and the upload's inspection before it runs", async () => {
    const good = rawZip([{ name: "index.mjs", data: "export default 1" }]);
    const digest = createHash("sha256").update(good).digest("hex");
    await expect(checkStoredArchive(good, digest, LIMITS)).resolves.toBeUndefined();
    const edited = rawZip([{ name: "index.mjs", data: "export default 2" }]);
    await expect(checkStoredArchive(edited, digest, LIMITS)).rejects.toThrow("the stored archive is not the one deployed");
    const noRoot = rawZip([{ name: "lib/index.mjs", data: "1" }]);
    await expect(checkStoredArchive(noRoot, createHash("sha256").update(noRoot).digest("hex"), LIMITS)).rejects.toThrow("no index.mjs or index.js at the archive root");
    const tooMany = rawZip(Array.from({ length: 17 }, (_, i) => ({ name: i === 0 ? "index.mjs" : `f${i}.js`, data: "1" })));
    await expect(checkStoredArchive(tooMany, createHash("sha256").update(tooMany).digest("hex"), LIMITS)).rejects.toThrow("the archive has 17 entries (limit 16)");
  });

  it("refuses bytes that are not a ZIP", async () => {
    await expect(extractArchive(new TextEncoder().encode("not a zip"), fresh(), LIMITS)).rejects.toThrow("not a valid ZIP file");
  });

  it("never reuses a directory that exists, nor writes through a symlink planted in its place", async () => {
    const taken = tree.mkdir("taken");
    await expect(extractArchive(await zipWith([{ name: "index.mjs" }]), taken, LIMITS)).rejects.toThrow();
    expect(readdirSync(taken)).toEqual([]);
    const target = tree.mkdir("target");
    symlinkSync(target, tree.path("planted"));
    await expect(extractArchive(await zipWith([{ name: "index.mjs" }]), tree.path("planted"), LIMITS)).rejects.toThrow();
    expect(readdirSync(target)).toEqual([]);
  });
});
