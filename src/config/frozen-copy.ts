/** Deeply frozen copies of plain data, with functions kept by reference (policy.md §2). */

/**
 * Copies arrays and objects recursively and freezes every copy; functions (the branch closure,
 * custom bundlers) and primitives are kept as they are. Keys are copied as own data
 * properties, so a key such as `__proto__` stays an ordinary key.
 */
export function frozenCopy<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(copy));
  if (typeof value === "object" && value !== null) {
    return Object.freeze(Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copy(inner)])));
  }
  return value;
}

/** Freezes plain data in place, leaving functions untouched. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
