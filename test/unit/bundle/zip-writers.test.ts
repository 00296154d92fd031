/**
 * Archives are deflated a few at a time however many functions a run bundles at once: each
 * deflate holds its compressor state until its archive is written, so writing every archive of a
 * large policy together held hundreds of megabytes. The archives are the same bytes either way.
 */
import JSZip from "jszip";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ZIP_WRITERS, writeCanonicalZip } from "../../../src/bundle/canonical-zip.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const filesOf = (i: number): Map<string, Uint8Array> => new Map([["index.mjs", new TextEncoder().encode(`export default () => new Response("${i}");\n`)]]);

describe("writing archives", () => {
  it(`deflates at most ${ZIP_WRITERS} archives at once when many are written together, each the bytes it has alone`, async () => {
    const count = ZIP_WRITERS * 5;
    const alone: Uint8Array[] = [];
    for (let i = 0; i < count; i++) alone.push(await writeCanonicalZip(filesOf(i)));

    const generate = JSZip.prototype.generateAsync;
    let inFlight = 0;
    let most = 0;
    vi.spyOn(JSZip.prototype, "generateAsync").mockImplementation(async function (this: JSZip, ...args: Parameters<JSZip["generateAsync"]>) {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await generate.apply(this, args);
      } finally {
        inFlight -= 1;
      }
    });
    const together = await Promise.all(Array.from({ length: count }, (_, i) => writeCanonicalZip(filesOf(i))));

    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(ZIP_WRITERS);
    expect(together.map((zip) => Buffer.from(zip).toString("base64"))).toEqual(alone.map((zip) => Buffer.from(zip).toString("base64")));
  });
});
