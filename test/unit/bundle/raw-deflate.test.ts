/**
 * The one deflate stream the process keeps (`raw-deflate.ts`) is reset before each file: whatever
 * the files before it held, a file's compressed bytes are the ones a new stream gives, so an
 * archive never depends on what was compressed before it (and carries none of its bytes).
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { rawDeflater } from "../../../src/bundle/raw-deflate.js";

const pako = createRequire(import.meta.url)("pako") as {
  deflateRaw(data: Uint8Array, options: { level: number; memLevel: number; windowBits: number }): Uint8Array;
  inflateRaw(data: Uint8Array): Uint8Array;
};

/** Deterministic bytes that look random (SHA-256 in counter mode). */
function noise(length: number, seed: string): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0, i = 0; at < length; i++, at += 32) out.set(createHash("sha256").update(`${seed}:${i}`).digest().subarray(0, Math.min(32, length - at)), at);
  return out;
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const secret = text("sk_live_0123456789abcdef_do_not_leak ".repeat(40));

/** Files in an order that leaves a used stream in every state a new one never has. */
const SEQUENCE: [string, Uint8Array][] = [
  ["a window's worth of incompressible bytes", noise(70_000, "a")],
  ["a file of a secret repeated", secret],
  ["a file that starts as the secret did", text(`${"sk_live_0123456789abcdef_do_not_leak ".repeat(2)}export default () => new Response("ok");\n`)],
  ["an empty file", new Uint8Array(0)],
  ["one byte", text("x")],
  ["a long run of one byte", new Uint8Array(300_000).fill(0x61)],
  ["source text", text("export function reply(slug) {\n  return new Response(`hello from ${slug}`);\n}\n".repeat(500))],
  ["bytes past the 64 KiB output chunk, then more noise", noise(200_000, "b")],
  ["the secret's prefix again, shorter", text("sk_live_0123456789")],
];

describe("the kept deflate stream", () => {
  it.each([1, 6, 9])("at level %s gives each file of a sequence the bytes a new stream gives, and they inflate back", (level) => {
    const deflate = rawDeflater(level);
    for (const [, data] of SEQUENCE) {
      const kept = deflate(data);
      expect(Buffer.from(kept).equals(Buffer.from(pako.deflateRaw(data, { level, memLevel: 8, windowBits: 15 })))).toBe(true);
      expect(Buffer.from(pako.inflateRaw(kept)).equals(Buffer.from(data))).toBe(true);
    }
  });

  it("gives a file the same bytes whatever was compressed before it", () => {
    const deflate = rawDeflater(6);
    const file = SEQUENCE[2]?.[1] ?? new Uint8Array(0);
    const alone = Buffer.from(deflate(file));
    for (const [, before] of SEQUENCE) {
      deflate(before);
      expect(Buffer.from(deflate(file)).equals(alone)).toBe(true);
    }
  });
});
