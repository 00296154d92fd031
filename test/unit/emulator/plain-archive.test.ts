/**
 * The emulator reads plain archives (what the bundler writes) without jszip. Whatever the bytes,
 * that reading must either decline (then jszip inspects the archive as before) or give exactly
 * what jszip gives: the file names and their decompressed total. jszip is the reference.
 */
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { writeCanonicalZip } from "../../../src/bundle/canonical-zip.js";
import { directoryRefusal, readArchiveDirectory } from "../../../src/emulator/engine/archive-directory.js";
import { inspectArchive } from "../../../src/emulator/engine/archives.js";
import { readPlainArchive } from "../../../src/emulator/engine/plain-archive.js";
import { rawZip } from "../../helpers/raw-zip.js";

const LIMITS = { zipEntries: 100, unzippedBytes: 1_000_000 };

/** What the jszip inspection reads: the names of the files (not directories) and their decompressed total. */
async function viaJszip(bytes: Uint8Array): Promise<{ names: string[]; unzippedBytes: number } | "error"> {
  try {
    const zip = await JSZip.loadAsync(bytes);
    const names: string[] = [];
    let unzippedBytes = 0;
    for (const entry of Object.values(zip.files)) {
      if (entry.dir) continue;
      names.push(entry.name);
      unzippedBytes += (await entry.async("uint8array")).byteLength;
    }
    return { names: names.sort(), unzippedBytes };
  } catch {
    return "error";
  }
}

function plainSorted(bytes: Uint8Array): { names: string[]; unzippedBytes: number } | undefined {
  const plain = readPlainArchive(bytes, LIMITS);
  return plain === undefined ? undefined : { names: [...plain.names].sort(), unzippedBytes: plain.unzippedBytes };
}

type Options = JSZip.JSZipFileOptions;

async function jszipArchive(files: [string, string | Uint8Array, Options?][], generate: JSZip.JSZipGeneratorOptions<"uint8array"> = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, data, options] of files) zip.file(name, data, { createFolders: false, ...options });
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", ...generate });
}

/** A deterministic sequence in [0, 1). */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe("reading a plain archive", () => {
  const plainCases: [string, () => Promise<Uint8Array>][] = [
    ["the bundler's archive of one function", () => writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("export default () => new Response('hi');\n".repeat(20))]]))],
    ["the bundler's archive with nested files and an empty one", () => writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("import './lib/a.js';")], ["lib/a.js", new TextEncoder().encode("x".repeat(5000))], ["lib/empty.js", new Uint8Array()]]))],
    ["jszip's deflated archive", () => jszipArchive([["index.js", "export default 1;".repeat(100)], ["a/b/c.js", "1"]])],
    ["jszip's stored archive", () => jszipArchive([["index.mjs", "export default 1"]], { compression: "STORE" })],
    ["jszip's archive with data descriptors", () => jszipArchive([["index.mjs", "export default 1".repeat(50)], ["x.js", "2"]], { streamFiles: true })],
    ["an archive without a root entry", () => jszipArchive([["lib/index.mjs", "export default 1"]])],
  ];

  it.each(plainCases)("reads %s as jszip does, without jszip", async (_label, make) => {
    const bytes = await make();
    const plain = plainSorted(bytes);
    expect(plain).toBeDefined();
    expect(plain).toEqual(await viaJszip(bytes));
  });

  const declined: [string, () => Promise<Uint8Array>][] = [
    ["a directory entry", () => jszipArchive([["index.mjs", "1"], ["lib/", "", { dir: true }]])],
    ["folders jszip adds itself", () => jszipArchive([["index.mjs", "1"], ["lib/a.js", "2", { createFolders: true }]])],
    ["a symbolic link", () => jszipArchive([["index.mjs", "1"], ["link", "index.mjs", { unixPermissions: 0o120777 }]], { platform: "UNIX" })],
    ["a `..` segment", () => jszipArchive([["index.mjs", "1"], ["../evil.js", "2"]])],
    ["a name that is not ASCII", () => jszipArchive([["index.mjs", "1"], ["données.js", "2"]])],
    ["an archive comment", () => jszipArchive([["index.mjs", "1"]], { comment: "hello" })],
    ["a file comment", () => jszipArchive([["index.mjs", "1", { comment: "note" }]])],
    ["more entries than the limit", () => jszipArchive(Array.from({ length: 101 }, (_, i) => [`f${i}.js`, "1"] as [string, string]))],
    ["more bytes than the limit", () => jszipArchive([["index.mjs", "a".repeat(1_000_001)]])],
    ["more than 1 MiB to inflate (jszip's inflate yields to other requests)", async () => {
      const bytes = await jszipArchive([["index.mjs", "1"], ["big.js", "b".repeat(1024 * 1024)]]);
      expect(readPlainArchive(bytes, { zipEntries: 100, unzippedBytes: 64 * 1024 * 1024 })).toBeUndefined();
      return bytes;
    }],
    ["bytes before the archive", async () => Uint8Array.from([...new TextEncoder().encode("#!prefix\n"), ...(await jszipArchive([["index.mjs", "1"]]))])],
    ["an empty archive", () => jszipArchive([])],
    ["bytes that are not an archive", async () => new TextEncoder().encode("not a zip at all, not even close to one")],
  ];

  it.each(declined)("declines an archive with %s, which jszip then inspects", async (_label, make) => {
    expect(readPlainArchive(await make(), LIMITS)).toBeUndefined();
  });

  it("declines a deflated entry whose data is damaged or whose size is not the one declared", async () => {
    const bytes = await jszipArchive([["index.mjs", "export default 1;".repeat(40)]]);
    const local = 30 + "index.mjs".length;
    const damaged = Uint8Array.from(bytes);
    damaged[local] = 0xff;
    damaged[local + 1] = 0xff;
    expect(readPlainArchive(damaged, LIMITS)).toBeUndefined();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const central = view.getUint32(bytes.byteLength - 22 + 16, true);
    const lying = Uint8Array.from(bytes);
    new DataView(lying.buffer).setUint32(central + 24, 7, true);
    expect(readPlainArchive(lying, LIMITS)).toBeUndefined();
  });

  it("declines two entries of the same name (jszip keeps one)", async () => {
    const bytes = await jszipArchive([["index.mjs", "1"], ["other.mjs", "2"]]);
    const renamed = Uint8Array.from(bytes);
    const text = Buffer.from(renamed);
    for (let at = text.indexOf("other.mjs"); at >= 0; at = text.indexOf("other.mjs", at + 1)) renamed.set(new TextEncoder().encode("index.mjs"), at);
    expect(await viaJszip(renamed)).toEqual({ names: ["index.mjs"], unzippedBytes: 1 });
    expect(readPlainArchive(renamed, LIMITS)).toBeUndefined();
  });

  it("either declines or reads exactly what jszip reads, for archives damaged at random", async () => {
    const random = sequence(20261127);
    const bases = [
      await writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("export default () => 1;\n".repeat(30))], ["lib/a.js", new TextEncoder().encode("const a = 1;")]])),
      await jszipArchive([["index.js", "module.exports = 1"], ["b.js", "2".repeat(300)]], { compression: "STORE" }),
    ];
    let read = 0;
    for (let round = 0; round < 400; round++) {
      const base = bases[round % bases.length] as Uint8Array;
      const bytes = Uint8Array.from(base);
      const changes = 1 + Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const plain = plainSorted(bytes);
      if (plain === undefined) continue;
      read += 1;
      expect(plain).toEqual(await viaJszip(bytes));
    }
    // Bytes the reading never looks at (dates, CRCs, versions) change too: some damaged archives stay plain.
    expect(read).toBeGreaterThan(0);
  });
});

describe("an archive the plain reading reads is one the directory reading accepts", () => {
  /** What the directory reading says of `bytes`: `null` when it reads them and refuses nothing. */
  function directoryVerdict(bytes: Uint8Array): unknown {
    const directory = readArchiveDirectory(bytes);
    return directory.kind === "read" ? directoryRefusal(directory.entries, LIMITS.zipEntries) : directory;
  }

  it("declines an entry whose central name is not its local name, which the directory reading then refuses", async () => {
    const twoNames = [
      rawZip([{ name: "index.mjs", data: "1" }, { name: "lib/a.js", centralName: "../a.js", data: "2" }]),
      rawZip([{ name: "index.mjs", data: "1" }, { name: "lib/a.js", centralName: "lib/b.js", data: "2" }]),
      rawZip([{ name: "index.mjs", centralName: "index.js", data: "1" }]),
    ];
    for (const bytes of twoNames) {
      expect(readPlainArchive(bytes, LIMITS)).toBeUndefined();
      expect(directoryVerdict(bytes)).toMatchObject({ kind: "unsafe", message: expect.stringContaining("in its local header") });
      expect(await inspectArchive(bytes, LIMITS)).toMatchObject({ kind: "unsafe", message: expect.stringContaining("in its local header") });
    }
  });

  it("holds for archives written byte by byte and damaged at random", async () => {
    const random = sequence(20261128);
    const names = ["index.mjs", "lib/a.js", "../a.js", "a\\b.js", "C:x.js", "/abs.js", "lib/", "a//b.js", "x\u202e.js", "index.mjs/"];
    const pick = (): string => names[Math.floor(random() * names.length)] as string;
    const bases: Uint8Array[] = [
      await writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("export default () => 1;\n".repeat(30))], ["lib/a.js", new TextEncoder().encode("const a = 1;")]])),
      await jszipArchive([["index.js", "module.exports = 1"], ["b.js", "2".repeat(300)]], { compression: "STORE" }),
    ];
    for (let k = 0; k < 200; k++) {
      const local = pick();
      bases.push(rawZip([{ name: "index.mjs", data: "1" }, { name: local, centralName: random() < 0.5 ? local : pick(), data: "2" }]));
    }
    let read = 0;
    for (let round = 0; round < 1200; round++) {
      const base = bases[round % bases.length] as Uint8Array;
      const bytes = Uint8Array.from(base);
      const changes = round < bases.length ? 0 : Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      if (readPlainArchive(bytes, LIMITS) === undefined) continue;
      read += 1;
      expect(directoryVerdict(bytes)).toBeNull();
    }
    expect(read).toBeGreaterThan(50);
  });
});

describe("inspecting an upload through the plain reading", () => {
  it("accepts the bundler's archive as jszip did, and names a missing root entry as the build's error", async () => {
    const good = await writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode(`export default ${Math.random()}`)]]));
    expect(await inspectArchive(good, LIMITS)).toEqual({ kind: "accepted", sha256: expect.stringMatching(/^[0-9a-f]{64}$/), buildError: null });
    const rootless = await writeCanonicalZip(new Map([["lib/index.mjs", new TextEncoder().encode(`export default ${Math.random()}`)]]));
    expect(await inspectArchive(rootless, LIMITS)).toMatchObject({ kind: "accepted", buildError: "no index.mjs or index.js at the archive root" });
  });

  it("still refuses what only jszip's path sees: a symbolic link, too many entries", async () => {
    const link = await jszipArchive([["index.mjs", "1"], [`link${Math.random()}`, "index.mjs", { unixPermissions: 0o120777 }]], { platform: "UNIX" });
    expect(await inspectArchive(link, LIMITS)).toMatchObject({ kind: "unsafe", message: expect.stringContaining("symbolic link") });
    const many = await jszipArchive(Array.from({ length: 101 }, (_, i) => [`f${i}-${Math.random()}.js`, "1"] as [string, string]));
    expect(await inspectArchive(many, LIMITS)).toMatchObject({ kind: "too-large", message: expect.stringContaining("101 entries (limit 100)") });
  });
});
