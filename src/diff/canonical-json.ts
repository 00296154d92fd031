import { createHash } from "node:crypto";

/**
 * JSON text with object keys sorted at every level; `undefined` entries dropped from objects and
 * written `null` in arrays. Built by appending to one string: it runs over every live resource of
 * a plan (its state fingerprint) and over each function's env (its fingerprint).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out += `${i === 0 ? "" : ","}${item === undefined ? "null" : canonicalJson(item)}`;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  return sha256OfText([canonicalJson(value)]);
}

/** `sha256:<hex>` of the text `parts` make together (canonical JSON built in pieces). */
export function sha256OfText(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return `sha256:${hash.digest("hex")}`;
}
