/**
 * Function fingerprints: the marker `SVC_FINGERPRINT_<codeTag>_<configTag>` a
 * deployment carries so the next plan can tell what changed without reading env values.
 * Keyed mode (a caller's `fingerprintKey`) makes the config tag an HMAC: microseconds. Hardened
 * mode (no key) stretches each distinct env value once with scrypt on a worker pool, memoised
 * per process, and derives nothing for a function whose decision cannot depend on it.
 */
import { createHash, createHmac } from "node:crypto";
import { canonicalJson } from "../diff/canonical-json.js";
import { MARKER_PREFIX, parseMarker } from "../diff/functions.js";
import type { FunctionTag } from "../model/planned-change.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { LiveFunction } from "../model/live-state.js";
import { scryptOnPool, warmScryptPool } from "./scrypt-pool.js";

const DOMAIN = "svc-fp/2";
const SEP = "\u0000";
/** Bytes a `fingerprintKey` must decode to, at least. */
export const MIN_FINGERPRINT_KEY_BYTES = 32;

/** What a fingerprint is computed from. Env values are secrets: they never leave this module. */
export interface FingerprintInput {
  slug: string;
  zipSha256: string;
  runtime: string;
  env: Readonly<Record<string, string>>;
}

/**
 * Decodes a `fingerprintKey` (hex, or base64 / base64url) of at least 32 bytes. Throws
 * `PLATFORM_INVALID_OPTIONS` otherwise; the error never contains the key.
 */
export function parseFingerprintKey(value: unknown): Buffer {
  const text = typeof value === "string" ? value.trim() : "";
  let bytes: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) bytes = Buffer.from(text, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) bytes = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
  if (bytes === undefined || bytes.length < MIN_FINGERPRINT_KEY_BYTES) {
    const got = typeof value === "string" ? `${bytes?.length ?? 0} decodable bytes` : typeof value;
    throw new PlatformError(
      ErrorCode.INVALID_OPTIONS,
      `Invalid option fingerprintKey: it must be at least ${MIN_FINGERPRINT_KEY_BYTES} random bytes written as hex or base64 (got ${got}). ` +
        "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
      { details: { option: "fingerprintKey", value: "(not shown)" } },
    );
  }
  return bytes;
}

/** First 20 hex (uppercase) of HMAC-SHA256(key `"svc-fp/2"‖projectId‖slug`, zipSha256). */
export function computeCodeTag(projectId: string, slug: string, zipSha256: string): string {
  return createHmac("sha256", [DOMAIN, projectId, slug].join(SEP)).update(zipSha256).digest("hex").slice(0, 20).toUpperCase();
}

/** The marker variable name `SVC_FINGERPRINT_<codeTag>_<configTag>`. */
export function markerName(codeTag: string, configTag: string): string {
  return `${MARKER_PREFIX}${codeTag}_${configTag}`;
}

/**
 * Whether the plan's decision for a function can depend on its config tag:
 * only when it exists with a non-failed deployment whose marker has the same code tag.
 * Otherwise it deploys with the archive whatever the env, so no derivation is spent on it.
 */
export function configTagMatters(live: LiveFunction | undefined, codeTag: string): boolean {
  if (live === undefined || live.current === undefined || live.current.status === "failed") return false;
  const parsed = live.markers.map(parseMarker).find((m) => m !== undefined);
  return parsed?.codeTag === codeTag;
}

const valueKeys = new Map<string, Promise<Buffer>>();

/**
 * k(name, value) = scrypt(value, "svc-fp/2"‖projectId‖name): once per distinct value per
 * process (memoised under a digest, never the value). `onDerive` runs when a derivation starts.
 */
function valueKey(projectId: string, name: string, value: string, onDerive: () => void): Promise<Buffer> {
  const salt = [DOMAIN, projectId, name].join(SEP);
  const memoKey = createHash("sha256").update(salt).update(SEP).update(value).digest("hex");
  let key = valueKeys.get(memoKey);
  if (key === undefined) {
    onDerive();
    key = scryptOnPool(Buffer.from(value, "utf8"), Buffer.from(salt, "utf8"));
    valueKeys.set(memoKey, key);
    key.catch(() => valueKeys.delete(memoKey));
  }
  return key;
}

/** Computes the fingerprints of one operation. */
export interface Fingerprinter {
  /** `K` with a key, `H` without. */
  readonly mode: "keyed" | "hardened";
  /** The code tag of a function's archive. */
  codeTag(slug: string, zipSha256: string): string;
  /** The full tag; in hardened mode waits for the function's env values to be derived. */
  tag(input: FingerprintInput): Promise<Required<FunctionTag>>;
  /** The tag without a config tag (hardened mode, when the decision cannot depend on it). */
  deferredTag(input: FingerprintInput): FunctionTag;
  /** Starts the derivation workers (hardened mode, when the policy has functions). */
  warmUp(): void;
  /** Derivations this fingerprinter started, and the wall time until the last one finished, ms. */
  stats(): { derivations: number; ms: number };
}

/** A fingerprinter for `projectId`: keyed when `key` (from {@link parseFingerprintKey}) is given, hardened otherwise. */
export function createFingerprinter(projectId: string, key?: Buffer): Fingerprinter {
  let derivations = 0;
  let firstStart: number | undefined;
  let lastEnd: number | undefined;
  const codeTag = (slug: string, zipSha256: string): string => computeCodeTag(projectId, slug, zipSha256);

  async function configTag(input: FingerprintInput): Promise<string> {
    const names = Object.keys(input.env).sort();
    if (key !== undefined) {
      const message = [DOMAIN, projectId, input.slug, input.zipSha256, canonicalJson({ runtime: input.runtime, env: input.env })].join(SEP);
      return `K${createHmac("sha256", key).update(message).digest("hex").slice(0, 19).toUpperCase()}`;
    }
    const onDerive = (): void => {
      derivations += 1;
      firstStart ??= performance.now();
    };
    const keys = await Promise.all(names.map((name) => valueKey(projectId, name, input.env[name] ?? "", onDerive)));
    if (firstStart !== undefined) lastEnd = performance.now();
    const macKey = createHash("sha256");
    for (const k of keys) macKey.update(k);
    const message = [DOMAIN, input.slug, input.zipSha256, input.runtime, ...names].join(SEP);
    return `H${createHmac("sha256", macKey.digest()).update(message).digest("hex").slice(0, 19).toUpperCase()}`;
  }

  return {
    mode: key === undefined ? "hardened" : "keyed",
    codeTag,
    async tag(input) {
      const code = codeTag(input.slug, input.zipSha256);
      const config = await configTag(input);
      return { zipSha256: input.zipSha256, codeTag: code, configTag: config, marker: markerName(code, config) };
    },
    deferredTag(input) {
      return { zipSha256: input.zipSha256, codeTag: codeTag(input.slug, input.zipSha256) };
    },
    warmUp() {
      if (key === undefined) warmScryptPool();
    },
    stats() {
      return { derivations, ms: firstStart === undefined || lastEnd === undefined ? 0 : lastEnd - firstStart };
    },
  };
}
