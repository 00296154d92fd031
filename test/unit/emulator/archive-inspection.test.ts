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
