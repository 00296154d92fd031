import { randomBytes } from "node:crypto";

/** Source of random bytes; injectable so `--id-seed` can make ids and passwords deterministic. */
export type RandomBytes = (size: number) => Uint8Array;

/** Default {@link RandomBytes}: `crypto.randomBytes`. */
export const cryptoRandom: RandomBytes = (size) => randomBytes(size);

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a canonical (8-4-4-4-12 hex) UUID of any version. */
export function isCanonicalUuid(value: string): boolean {
  return CANONICAL_UUID.test(value);
}

/**
 * A UUID v7 (RFC 9562): 48-bit Unix milliseconds, version 7, 74 random bits with the variant.
 * Ids made later sort later (at millisecond resolution).
 */
export function uuidV7(nowMs: number, random: RandomBytes = cryptoRandom): string {
  const bytes = new Uint8Array(16);
  bytes.set(random(10).subarray(0, 10), 6);
  let ms = Math.max(0, Math.floor(nowMs));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Physical name of a claimable database and its role: `svc_claim_<32 hex of id>`. */
export function physicalName(id: string): string {
  return `svc_claim_${id.replaceAll("-", "").toLowerCase()}`;
}

/** A random 32-character base64url password. */
export function newPassword(random: RandomBytes = cryptoRandom): string {
  return Buffer.from(random(24)).toString("base64url");
}
