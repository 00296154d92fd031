import JSZip from "jszip";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inspectArchive } from "../../../src/emulator/engine/archives.js";

const ROOMY = { zipEntries: 100, unzippedBytes: 1_000_000 };

/** An archive jszip inspects: the directory entry keeps it off the plain reading (`plain-archive.ts`). */
async function archive(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text, { createFolders: false });
  zip.folder("assets");
  return zip.generateAsync({ type: "uint8array" });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("inspecting an uploaded archive again", () => {
  it("does not unzip the same bytes under the same limits a second time, and gives the same outcome", async () => {
    const bytes = await archive({ "index.mjs": `export default () => new Response("${Math.random()}")` });
    const unzip = vi.spyOn(JSZip, "loadAsync");
    const first = await inspectArchive(bytes, ROOMY);
    const again = await inspectArchive(Uint8Array.from(bytes), ROOMY);
    expect(first).toMatchObject({ kind: "accepted", buildError: null });
    expect(again).toEqual(first);
    expect(unzip).toHaveBeenCalledTimes(1);
  });

  it("unzips the same bytes uploaded together once, and gives each upload the same outcome", async () => {
    const bytes = await archive({ "index.mjs": `export default () => new Response("${Math.random()}")` });
    const unzip = vi.spyOn(JSZip, "loadAsync");
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => inspectArchive(Uint8Array.from(bytes), ROOMY)));
    expect(unzip).toHaveBeenCalledTimes(1);
    for (const outcome of outcomes) expect(outcome).toEqual({ kind: "accepted", sha256: expect.stringMatching(/^[0-9a-f]{64}$/), buildError: null });
  });

  it("judges the same bytes by the limits of each upload", async () => {
    const bytes = await archive({ "index.mjs": "export default 1", "a.js": "1", "b.js": "2", "c.js": String(Math.random()) });
    expect((await inspectArchive(bytes, ROOMY)).kind).toBe("accepted");
    expect(await inspectArchive(bytes, { ...ROOMY, zipEntries: 2 })).toMatchObject({ kind: "too-large", message: expect.stringContaining("5 entries (limit 2)") });
    expect((await inspectArchive(bytes, ROOMY)).kind).toBe("accepted");
  });

  it("refuses an archive with an unsafe entry every time it is uploaded", async () => {
    const bytes = await archive({ "index.mjs": "export default 1", [`lib/evil\n${Math.random()}.js`]: "x" });
    for (let i = 0; i < 3; i++) {
      const outcome = await inspectArchive(bytes, ROOMY);
      expect(outcome.kind).toBe("unsafe");
      expect(outcome).toMatchObject({ message: expect.stringContaining("\\u000a") });
    }
  });
});

describe("an entry whose header understates its size", () => {
  /** An archive jszip inspects (a directory entry keeps it off the plain reading) whose root entry declares `declared` bytes and holds `text`. */
  async function understated(text: string, declared: number): Promise<Uint8Array> {
    const bytes = await archive({ "index.mjs": text });
    const zip = Buffer.from(bytes);
    const end = zip.length - 22;
    let at = zip.readUInt32LE(end + 16);
    for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
      const nameLength = zip.readUInt16LE(at + 28);
      if (zip.toString("latin1", at + 46, at + 46 + nameLength) === "index.mjs") zip.writeUInt32LE(declared, at + 24);
      at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    }
    return zip;
  }

  it("is refused as too large once it inflates past the limit, whatever it declares", async () => {
    const bytes = await understated(`export default 1;//${" ".repeat(2_000_000)}${Math.random()}`, 100);
    expect(await inspectArchive(bytes, ROOMY)).toEqual({ kind: "too-large", message: "the archive expands to more than 1000000 bytes; bundle less code" });
  });

  it("within the limit, is accepted with a build error naming the entry, in our words rather than jszip's", async () => {
    const bytes = await understated(`export default 1;//${" ".repeat(20_000)}${Math.random()}`, 100);
    expect(await inspectArchive(bytes, ROOMY)).toMatchObject({
      kind: "accepted",
      buildError: 'archive is not a valid ZIP file: entry "index.mjs" cannot be decompressed: its data is damaged or is not the size its headers declare',
    });
  });
});
