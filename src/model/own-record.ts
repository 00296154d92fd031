/**
 * Records that never answer through `Object.prototype`: every record keyed by a user's or the
 * platform's names, and every options object, is one of these (or a `Map`). A name such as
 * `constructor` or `hasOwnProperty` is then an entry like any other, and a polluted
 * `Object.prototype` adds nothing to them.
 */

/** A null-prototype copy of `value`'s own enumerable string-keyed properties, each read once. */
export function ownRecord(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

/** A null-prototype record of `entries` (later entries win). */
export function nameRecord<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out: Record<string, V> = Object.create(null);
  for (const [key, value] of entries) out[key] = value;
  return out;
}
