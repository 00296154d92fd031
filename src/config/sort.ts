/** Code-point ordering, so resolved output never depends on object key order. */

/** Compares two strings by Unicode code points (not UTF-16 units, not locale). */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true || y.done === true) return (x.done === true ? 0 : 1) - (y.done === true ? 0 : 1);
    const diff = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
}

/** A UTF-16 surrogate: only a string holding one can order differently by code units than by code points. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The entries of `record` sorted by key in code-point order. When no key holds a surrogate, each
 * code unit of each key is one code point, so comparing code units (native string comparison) gives
 * the very order {@link compareCodePoints} gives, without iterating code points in every comparison:
 * a policy's resolution sorts every collection this way, between two of the plan's read waves.
 */
export function sortedEntries<T>(record: Readonly<Record<string, T>>): [string, T][] {
  const entries = Object.entries(record);
  if (entries.some(([key]) => SURROGATE.test(key))) return entries.sort(([a], [b]) => compareCodePoints(a, b));
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
