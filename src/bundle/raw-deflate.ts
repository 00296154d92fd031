/**
 * Raw DEFLATE of archive files with pako, the compressor jszip used: its output for a given input
 * and level is fixed by the installed version (pinned), where Node's own zlib gives other bytes
 * (which would change every archive's digest) and changes with the Node.js release.
 *
 * pako's one-call `deflateRaw` allocates and zeroes about 260 KiB of compressor state per file,
 * which cost more than compressing the small files of a bundle. One stream is kept instead and
 * reset before each file, its window and chains zeroed so that it starts exactly as a new one
 * (pako reads window bytes past the data it holds while matching: stale ones could pick another
 * match). Every table is zeroed with `fill`: pako's own reset clears its 32 Ki-entry hash heads
 * one element at a time in JavaScript, which cost more than compressing a small file (interpreted,
 * before the loop is optimised, about 0.15 ms a file), so the reset is given an empty head table
 * and the real one is filled here. Files are compressed one at a time, synchronously, so one
 * stream serves the process.
 */
import { createRequire } from "node:module";

/** The fields of pako's z_stream this module sets and reads. */
interface ZStream {
  input: Uint8Array | null;
  next_in: number;
  avail_in: number;
  output: Uint8Array | null;
  next_out: number;
  avail_out: number;
  msg: string;
  state: { window: Uint8Array; prev: Uint16Array; head: Uint16Array } | null;
}

/** pako's zlib port: the calls used here. */
interface PakoDeflate {
  deflateInit2(strm: ZStream, level: number, method: number, windowBits: number, memLevel: number, strategy: number): number;
  deflateReset(strm: ZStream): number;
  deflate(strm: ZStream, flush: number): number;
}

const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_FINISH = 4;
const Z_DEFLATED = 8;
/** A negative window size asks for raw DEFLATE (no zlib header or checksum); 15 is jszip's (pako's default). */
const RAW_WINDOW_BITS = -15;
/** pako's default memory level, which jszip used. */
const MEM_LEVEL = 8;
const DEFAULT_STRATEGY = 0;
/** Output is produced into this much space at a time. */
const OUTPUT_CHUNK = 64 * 1024;

/** Compresses one file's bytes; the returned array is the caller's. */
export type RawDeflate = (data: Uint8Array) => Uint8Array;

const deflaters = new Map<number, RawDeflate>();

/**
 * The raw DEFLATE of `level`, loaded on first use (importing svc-config never loads pako). Throws
 * with an install hint when pako is missing.
 */
export function rawDeflater(level: number): RawDeflate {
  let deflater = deflaters.get(level);
  if (deflater === undefined) {
    deflater = createDeflater(loadPako(), level);
    deflaters.set(level, deflater);
  }
  return deflater;
}

function createDeflater(pako: { zlib: PakoDeflate; ZStream: new () => ZStream }, level: number): RawDeflate {
  const strm = new pako.ZStream();
  check(strm, pako.zlib.deflateInit2(strm, level, Z_DEFLATED, RAW_WINDOW_BITS, MEM_LEVEL, DEFAULT_STRATEGY), Z_OK);
  const out = new Uint8Array(OUTPUT_CHUNK);
  const noHeads = new Uint16Array(0);
  return (data) => {
    resetStream(strm, pako.zlib, noHeads);
    strm.input = data;
    strm.next_in = 0;
    strm.avail_in = data.byteLength;
    const chunks: Uint8Array[] = [];
    let status: number;
    try {
      do {
        strm.output = out;
        strm.next_out = 0;
        strm.avail_out = out.byteLength;
        status = pako.zlib.deflate(strm, Z_FINISH);
        if (status !== Z_OK && status !== Z_STREAM_END) check(strm, status, Z_STREAM_END);
        chunks.push(out.slice(0, strm.next_out));
      } while (status !== Z_STREAM_END);
    } finally {
      strm.input = null;
      strm.output = null;
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(Buffer.concat(chunks));
  };
}

/**
 * pako's `deflateReset`, then every table a new stream starts with zeroed: the window, the hash
 * chains and the hash heads. The reset zeroes the heads itself (its only use of them), in a
 * JavaScript loop; it is handed `noHeads` (empty) for that, and the stream's own table is put
 * back and zeroed with `fill`, so the stream is left exactly as pako's reset leaves it.
 */
function resetStream(strm: ZStream, zlib: PakoDeflate, noHeads: Uint16Array): void {
  const state = strm.state;
  if (state === null) throw new Error("pako's deflate stream has no state");
  const heads = state.head;
  state.head = noHeads;
  try {
    check(strm, zlib.deflateReset(strm), Z_OK);
  } finally {
    state.head = heads;
  }
  heads.fill(0);
  state.window.fill(0);
  state.prev.fill(0);
}

function check(strm: ZStream, status: number, expected: number): void {
  if (status !== expected) throw new Error(`pako's deflate failed (status ${status}${strm.msg === "" ? "" : `: ${strm.msg}`})`);
}

function loadPako(): { zlib: PakoDeflate; ZStream: new () => ZStream } {
  let zlib: Partial<PakoDeflate>;
  let ZStream: unknown;
  try {
    const load = createRequire(import.meta.url);
    zlib = load("pako/lib/zlib/deflate.js") as Partial<PakoDeflate>;
    ZStream = load("pako/lib/zlib/zstream.js");
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`pako could not be loaded (${why}): install it with \`npm install pako\``, { cause: err });
  }
  const { deflateInit2, deflateReset, deflate } = zlib;
  if (typeof deflateInit2 !== "function" || typeof deflateReset !== "function" || typeof deflate !== "function" || typeof ZStream !== "function") {
    throw new Error("pako could not be loaded (it lacks its zlib port's deflate): install pako 1.0.11 with `npm install pako@1.0.11`");
  }
  return { zlib: { deflateInit2, deflateReset, deflate }, ZStream: ZStream as new () => ZStream };
}
