/**
 * Archives are written by svc-config's own ZIP writer (pako's DEFLATE, a native CRC-32) and must
 * keep the exact bytes jszip gave for the same files: saved plans, fingerprints and the deployed
 * functions' records commit to archive digests, so an unchanged function must keep its digest
 * across the upgrade. jszip, still the reader of foreign archives, is the reference here.
 */
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { CANONICAL_DEFLATE_LEVEL, CANONICAL_ZIP_DATE, CANONICAL_ZIP_PERMISSIONS, readForeignZip, sortedPaths, writeCanonicalZip } from "../../../src/bundle/canonical-zip.js";

/** The archive jszip writes for `files` with the canonical settings. */
async function jszipArchive(files: ReadonlyMap<string, Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  const ordered = sortedPaths(files);
  for (const path of ordered) {
    zip.file(path, files.get(path) ?? new Uint8Array(), { binary: true, createFolders: false, date: CANONICAL_ZIP_DATE, unixPermissions: CANONICAL_ZIP_PERMISSIONS });
  }
  // Its own order puts integer-like names first: pin the canonical one.
  zip.forEach = (callback) => {
    for (const path of ordered) {
      const file = zip.file(path);
      if (file !== null) callback(path, file);
    }
  };
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: CANONICAL_DEFLATE_LEVEL }, platform: "UNIX" });
}

/** Deterministic bytes: `random` ones (incompressible) or JavaScript-like text with repeats. */
function content(seed: number, bytes: number, random = false): Uint8Array {
  let state = seed * 2654435761 + 1;
  const next = (): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 8;
  };
  if (random) return Uint8Array.from({ length: bytes }, () => next() & 0xff);
  const words = ["export", "const", "function", "return", "await", "fetch(", "Response", "=>", "{", "}", ";\n", "  ", "value", "env.API_TOKEN", `"s${seed}"`];
  let text = "";
  while (text.length < bytes) text += `${words[next() % words.length]} ${next() % 7 === 0 ? next() : ""}`;
  return new TextEncoder().encode(text.slice(0, bytes));
}

const cases: [string, Map<string, Uint8Array>][] = [
  ["one small entry", new Map([["index.mjs", content(1, 300)]])],
  ["an empty file beside others", new Map([["index.mjs", content(2, 900)], ["empty.txt", new Uint8Array()], ["lib/a.js", content(3, 40)]])],
  ["files across jszip's 16 KiB chunks and the 32 KiB window", new Map([["index.js", content(4, 20_000)], ["big/vendor.js", content(5, 300_000)]])],
  ["incompressible data", new Map([["index.mjs", content(6, 100)], ["blob.bin", content(7, 70_000, true)]])],
  ["more than one slice between turns of the event loop", new Map([["index.mjs", content(8, 1_200_000)], ["z/after.js", content(9, 900_000)]])],
  ["a file repeating the start of a large one written just before (the compressor is reused)", (() => {
    const noise = content(17, 70_000, true);
    return new Map([["a.bin", noise], ["b/index.js", new Uint8Array([...noise.subarray(0, 300), ...content(18, 200)])], ["c.js", noise.subarray(69_000)]]);
  })()],
  ["names that are not ASCII, and integer-like names", new Map([["index.mjs", content(10, 50)], ["données/é.js", content(11, 60)], ["日本/ファイル.mjs", content(12, 70)], ["🙂.txt", content(13, 5)], ["10", content(14, 8)], ["2", content(15, 8)]])],
  ["hundreds of entries", new Map([["index.js", content(16, 10)], ...Array.from({ length: 300 }, (_, i) => [`m/${i}.js`, content(100 + i, 50 + ((i * 37) % 2000))] as [string, Uint8Array])])],
];

describe("writing archives", () => {
  it.each(cases)("gives jszip's bytes for %s, and reads back as the same files", async (_label, files) => {
    const written = await writeCanonicalZip(files);
    expect(Buffer.from(written).equals(Buffer.from(await jszipArchive(files)))).toBe(true);
    const read = await readForeignZip("fn", written);
    expect([...read.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, data] of files) expect(Buffer.from(read.get(path) ?? []).equals(Buffer.from(data))).toBe(true);
  });

  it("gives each archive the bytes it has alone when many are written together", async () => {
    const all = cases.map(([, files]) => files);
    const alone: Buffer[] = [];
    for (const files of all) alone.push(Buffer.from(await writeCanonicalZip(files)));
    const together = await Promise.all(all.map((files) => writeCanonicalZip(files)));
    expect(together.map((zip, i) => Buffer.from(zip).equals(alone[i] ?? Buffer.alloc(0)))).toEqual(all.map(() => true));
  });
});
