/** Equality of JSON-like values (arrays in order, objects by key). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return sameValue(ka, kb) && ka.every((k) => sameValue(ra[k], rb[k]));
  }
  return false;
}
