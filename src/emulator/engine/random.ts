/**
 * Randomness for ids, secrets and faults. With a seed everything comes from a deterministic
 * PRNG (golden tests); without one, ids and secrets use `crypto.randomBytes`.
 */
import { randomBytes, randomFillSync } from "node:crypto";

/** A source of uniformly distributed 32-bit words. */
export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
  /** `n` random bytes. */
  bytes(n: number): Buffer;
}

/** A seeded PRNG (sfc32 seeded through splitmix32): fast, small, good enough for tests. */
export function createSeededRandom(seed: number): RandomSource {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const word = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) word();
  return {
    next: () => word() / 4294967296,
    bytes(n) {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) out[i] = word() & 0xff;
      return out;
    },
  };
}

/** Bytes a cryptographic source draws from the system at once. */
const POOL_BYTES = 4096;

/**
 * Cryptographic randomness, drawn from the system `POOL_BYTES` at a time (as `crypto.randomUUID`
 * draws its own) rather than with a call per id or number. Each byte is handed out once and
 * zeroed in the pool as it is; `bytes` returns a copy the caller owns.
 */
export function createCryptoRandom(): RandomSource {
  const pool = Buffer.alloc(POOL_BYTES);
  let used = POOL_BYTES;
  /** The offset of `n` unused bytes, refilling the pool when it has fewer left. */
  const reserve = (n: number): number => {
    if (used + n > POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    used += n;
    return used - n;
  };
  return {
    next: () => {
      const at = reserve(4);
      const word = pool.readUInt32BE(at);
      pool.fill(0, at, at + 4);
      return word / 4294967296;
    },
    bytes(n) {
      if (n > POOL_BYTES) return randomBytes(n);
      const at = reserve(n);
      const out = Buffer.from(pool.subarray(at, at + n));
      pool.fill(0, at, at + n);
      return out;
    },
  };
}

const WORDS_A = ["autumn", "bold", "calm", "damp", "eager", "fancy", "gentle", "hidden", "icy", "jolly", "keen", "lively", "misty", "noisy", "old", "proud", "quiet", "rapid", "small", "tiny", "wild", "young"];
const WORDS_B = ["disk", "term", "river", "field", "sky", "leaf", "moon", "pond", "rain", "sea", "snow", "star", "stone", "sun", "tree", "wave", "wind", "wood", "cloud", "dawn", "frost", "hill"];
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Id and secret generator over a random source. */
export class IdFactory {
  constructor(private readonly random: RandomSource) {}

  private pick(words: readonly string[]): string {
    return words[Math.floor(this.random.next() * words.length)] ?? "x";
  }

  /** `word-word-123456`. */
  wordId(): string {
    const digits = String(Math.floor(this.random.next() * 900000) + 100000);
    return `${this.pick(WORDS_A)}-${this.pick(WORDS_B)}-${digits}`;
  }

  /** A UUID v4. */
  uuid(): string {
    const b = this.random.bytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.toString("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    return this.random.bytes(Math.ceil(n / 2)).toString("hex").slice(0, n);
  }

  /** `n` base62 characters (role passwords). */
  base62(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += BASE62[Math.floor(this.random.next() * 62)] ?? "0";
    return out;
  }

  /** An API key token: `svcemu_` + 43 base64url characters (256 bits). */
  apiKeyToken(): string {
    return `svcemu_${this.random.bytes(32).toString("base64url")}`;
  }
}
