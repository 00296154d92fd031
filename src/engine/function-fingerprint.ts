import { createHash, createHmac, scrypt } from "node:crypto";
import pLimit from "p-limit";
import { canonicalJson } from "../diff/canonical-json.js";
import { MARKER_PREFIX } from "../diff/functions.js";
import type { FunctionTag } from "../model/planned-change.js";

/** scrypt cost of `configTag` (engine.md §6): ~32 MiB and ~100 ms per derivation. */
export const CONFIG_TAG_SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

const DOMAIN = "svc-fp/1";
const SEP = "\u0000";
const derivations = pLimit(2);
const memo = new Map<string, Promise<string>>();

/** What a fingerprint is computed from. Env values are secrets: they never leave this module. */
export interface FingerprintInput {
  projectId: string;
  slug: string;
  zipSha256: string;
  runtime: string;
  env: Readonly<Record<string, string>>;
}

/** First 20 hex (uppercase) of HMAC-SHA256(key `"svc-fp/1"‖projectId‖slug`, zipSha256). */
export function computeCodeTag(projectId: string, slug: string, zipSha256: string): string {
  return createHmac("sha256", [DOMAIN, projectId, slug].join(SEP)).update(zipSha256).digest("hex").slice(0, 20).toUpperCase();
}

function deriveScrypt(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 10, CONFIG_TAG_SCRYPT, (err, key) => (err ? reject(err) : resolve(key.toString("hex").toUpperCase())));
  });
}

/**
 * Hex (uppercase) of 10 bytes of scrypt over the canonical JSON `{runtime, env}` (keys sorted,
 * `""` entries kept), salted per project, function and bundle. Memoised per process by a
 * digest of salt and password; at most two derivations run at once.
 */
export function computeConfigTag(input: FingerprintInput): Promise<string> {
  const password = canonicalJson({ runtime: input.runtime, env: input.env });
  const salt = [DOMAIN, input.projectId, input.slug, input.zipSha256].join(SEP);
  const key = createHash("sha256").update(salt).update(SEP).update(password).digest("hex");
  let tag = memo.get(key);
  if (tag === undefined) {
    tag = derivations(() => deriveScrypt(password, salt));
    memo.set(key, tag);
    tag.catch(() => memo.delete(key));
  }
  return tag;
}

/** The marker variable name `SVC_FINGERPRINT_<codeTag>_<configTag>`. */
export function markerName(codeTag: string, configTag: string): string {
  return `${MARKER_PREFIX}${codeTag}_${configTag}`;
}

/** The full deployment fingerprint of one function (engine.md §6). */
export async function computeFunctionTag(input: FingerprintInput): Promise<FunctionTag> {
  const codeTag = computeCodeTag(input.projectId, input.slug, input.zipSha256);
  const configTag = await computeConfigTag(input);
  return { zipSha256: input.zipSha256, codeTag, configTag, marker: markerName(codeTag, configTag) };
}
