/**
 * The archive's own directory, read before jszip: every name a reader could take must be the one
 * checked. jszip is the reference for which records exist; Info-ZIP's reading (central names) is
 * why a local name that differs is refused.
 */
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { writeCanonicalZip } from "../../../src/bundle/canonical-zip.js";
import { directoryRefusal, readArchiveDirectory } from "../../../src/emulator/engine/archive-directory.js";
import { rawZip, unicodePathExtra } from "../../helpers/raw-zip.js";

const INDEX = { name: "index.mjs", data: "export default 1" };

async function jszipArchive(files: [string, string, JSZip.JSZipFileOptions?][], generate: JSZip.JSZipGeneratorOptions<"uint8array"> = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, data, options] of files) zip.file(name, data, { createFolders: false, ...options });
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", ...generate });
}

/** The raw names jszip reads (what an extractor would write), sorted; `undefined` when it cannot open the bytes. */
async function jszipNames(bytes: Uint8Array): Promise<string[] | undefined> {
  try {
    const zip = await JSZip.loadAsync(bytes);
    return Object.values(zip.files)
      .map((entry) => entry.unsafeOriginalName ?? entry.name)
      .sort();
  } catch {
    return undefined;
  }
}

function readNames(bytes: Uint8Array): string[] | string {
  const directory = readArchiveDirectory(bytes);
  return directory.kind === "read" ? directory.entries.map((entry) => entry.name).sort() : directory.reason;
}

describe("reading the archive's directory", () => {
  const readable: [string, () => Promise<Uint8Array>][] = [
    ["the bundler's archive", () => writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("export default 1")], ["lib/données.js", new TextEncoder().encode("2")]]))],
    ["jszip's archive with data descriptors", () => jszipArchive([["index.mjs", "1".repeat(50)], ["x.js", "2"]], { streamFiles: true })],
    ["jszip's stored archive with a directory entry", () => jszipArchive([["index.mjs", "1"], ["lib/", "", { dir: true }]], { compression: "STORE" })],
    ["an archive comment and a file comment", () => jszipArchive([["index.mjs", "1", { comment: "note" }]], { comment: "hello" })],
    ["bytes before the archive (as jszip allows)", async () => Uint8Array.from([...new TextEncoder().encode("#!prefix\n"), ...(await jszipArchive([["index.mjs", "1"]]))])],
  ];

  it.each(readable)("reads %s with the names jszip reads, and refuses nothing", async (_label, make) => {
    const bytes = await make();
    const directory = readArchiveDirectory(bytes);
    expect(readNames(bytes)).toEqual(await jszipNames(bytes));
    expect(directory.kind === "read" ? directoryRefusal(directory.entries, 100) : directory).toBeNull();
  });

  const zip64 = (): Uint8Array => {
    const bytes = rawZip([INDEX]);
    bytes.writeUInt16LE(0xffff, bytes.length - 22 + 10);
    return bytes;
  };
  const unreadable: [string, () => Uint8Array, string][] = [
    ["bytes that are not a ZIP", () => new TextEncoder().encode("not a zip"), "it has no end of central directory record (is it a ZIP file?)"],
    ["an end record cut short", () => rawZip([INDEX]).subarray(0, -4), "its end of central directory record is cut short"],
    ["ZIP64 marks in the end record", zip64, "it is a ZIP64 archive; write a standard ZIP (the archive limits never need ZIP64)"],
    ["an encrypted entry", () => rawZip([INDEX, { name: "secret.js", flags: 0x0801, data: "x" }]), 'entry "secret.js" is encrypted; archives must not be'],
    [
      "a compression method other than stored and deflate",
      () => {
        const bytes = rawZip([INDEX]);
        bytes.writeUInt16LE(12, bytes.readUInt32LE(bytes.length - 22 + 16) + 10);
        return bytes;
      },
      'entry "index.mjs" uses compression method 12; use stored (0) or deflate (8)',
    ],
    [
      "a record pointing past the local headers",
      () => {
        const bytes = rawZip([INDEX]);
        bytes.writeUInt32LE(5, bytes.readUInt32LE(bytes.length - 22 + 16) + 42);
        return bytes;
      },
      'entry "index.mjs" has no local header where the central directory points',
    ],
  ];

  it.each(unreadable)("finds %s unreadable, saying why in its own words", (_label, make, reason) => {
    expect(readArchiveDirectory(make())).toEqual({ kind: "unreadable", reason });
  });

  it("reads every record that follows, whatever count the end record announces (as jszip does)", () => {
    const bytes = rawZip([INDEX, { name: "a.js", data: "1" }, { name: "b.js", data: "2" }]);
    bytes.writeUInt16LE(1, bytes.length - 22 + 8);
    bytes.writeUInt16LE(1, bytes.length - 22 + 10);
    expect(readNames(bytes)).toEqual(["a.js", "b.js", "index.mjs"]);
  });
});

describe("refusing an archive by its directory", () => {
  const refused: [string, Uint8Array, number, { kind: string; message: string }][] = [
    ["a local name that differs", rawZip([INDEX, { name: "lib/a.js", centralName: "../a.js", data: "1" }]), 8, { kind: "unsafe", message: 'archive entry "../a.js" is named "lib/a.js" in its local header; an entry must have one name: rebuild the archive' }],
    ["a Unicode Path field naming another path", rawZip([INDEX, { name: "a.js", flags: 0, centralExtra: unicodePathExtra("a.js", "../a.js"), data: "1" }]), 8, { kind: "unsafe", message: 'archive entry "a.js" carries a Unicode Path field naming "../a.js"; an entry must have one name: rebuild the archive' }],
    ["a name given twice", rawZip([INDEX, { name: "a.js" }, { name: "a.js" }]), 8, { kind: "unsafe", message: 'archive entry "a.js" appears more than once; each name may appear once: rebuild the archive' }],
    ["a file and a directory of one name", rawZip([INDEX, { name: "lib" }, { name: "lib/" }]), 8, { kind: "unsafe", message: 'archive entry "lib/" appears more than once; each name may appear once: rebuild the archive' }],
    ["a directory named with ..", rawZip([INDEX, { name: "../up/" }]), 8, { kind: "unsafe", message: 'archive entry "../up/" is unsafe: the path contains a .. segment; rebuild the archive with relative paths' }],
    ["a right-to-left override", rawZip([INDEX, { name: "invoice\u202efdp.mjs" }]), 8, { kind: "unsafe", message: expect.stringContaining('archive entry "invoice\\u202efdp.mjs" is unsafe: the path contains a zero-width') }],
    ["more records than the limit", rawZip([INDEX, { name: "a.js" }, { name: "b.js" }]), 2, { kind: "too-large", message: "the archive has 3 entries (limit 2); bundle into fewer files" }],
  ];

  it.each(refused)("refuses %s, naming the entry", (_label, bytes, limit, refusal) => {
    const directory = readArchiveDirectory(bytes);
    expect(directory.kind).toBe("read");
    expect(directory.kind === "read" ? directoryRefusal(directory.entries, limit) : null).toEqual(refusal);
  });

  it("keeps a Unicode Path field that names the entry's own name, as the bundler writes it", async () => {
    const bytes = await writeCanonicalZip(new Map([["index.mjs", new TextEncoder().encode("1")], ["données.js", new TextEncoder().encode("2")]]));
    const directory = readArchiveDirectory(bytes);
    expect(directory.kind === "read" ? directoryRefusal(directory.entries, 8) : directory).toBeNull();
  });

  it("for archives damaged at random: whatever it does not refuse, jszip reads under exactly the names checked (a directory's / aside)", async () => {
    let state = 20261127;
    const random = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const bases = [rawZip([INDEX, { name: "lib/a.js", data: "1" }, { name: "b/", data: "" }]), Buffer.from(await jszipArchive([["index.js", "x".repeat(200)], ["c.js", "2"]]))];
    let accepted = 0;
    for (let round = 0; round < 600; round++) {
      const bytes = Uint8Array.from(bases[round % bases.length] as Uint8Array);
      for (let c = 1 + Math.floor(random() * 3); c > 0; c--) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const directory = readArchiveDirectory(bytes);
      if (directory.kind !== "read" || directoryRefusal(directory.entries, 100) !== null) continue;
      const names = await jszipNames(bytes);
      if (names === undefined) continue;
      accepted += 1;
      // Attributes jszip reads as a directory's add the trailing `/` to a name checked without it.
      const bare = (list: readonly string[]): string[] => list.map((name) => name.replace(/\/$/, "")).sort();
      expect(bare(names)).toEqual(bare(directory.entries.map((entry) => entry.name)));
    }
    expect(accepted).toBeGreaterThan(0);
  });
});
