/**
 * Read-only copies of engine data for code the user wrote (policy checks): plain objects become
 * frozen null-prototype copies, arrays frozen copies, both behind a proxy whose writes throw
 * (also in sloppy-mode code, where a write to a frozen object is silently ignored); `Map`s become
 * copies whose `set`, `delete` and `clear` throw. Whatever a write does, it never reaches the
 * plan the engine applies. Functions are kept by reference.
 */

function refuse(): never {
  throw new TypeError("checks get a read-only copy of the plan, the policy and the live state; a check cannot change them");
}

/** Every write through the proxy throws, in strict and sloppy code alike. */
const READ_ONLY: ProxyHandler<object> = Object.freeze({ set: refuse, defineProperty: refuse, deleteProperty: refuse, setPrototypeOf: refuse });

function readOnlyMap(source: ReadonlyMap<unknown, unknown>, seen: Map<object, unknown>): ReadonlyMap<unknown, unknown> {
  const copy = new Map<unknown, unknown>();
  for (const [key, value] of source) copy.set(key, copyOf(value, seen));
  for (const method of ["set", "delete", "clear"] as const) Object.defineProperty(copy, method, { value: refuse });
  return Object.freeze(copy);
}

function copyOf(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = new Proxy(Object.freeze(value.map((item) => copyOf(item, seen))), READ_ONLY);
  } else if (value instanceof Map) {
    copy = readOnlyMap(value, seen);
  } else {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) out[key] = copyOf((value as Record<string, unknown>)[key], seen);
    copy = new Proxy(Object.freeze(out), READ_ONLY);
  }
  seen.set(value, copy);
  return copy;
}

/** A deep read-only copy of `value` (see the module comment); shared references stay shared. */
export function readOnlyCopy<T>(value: T): T {
  return copyOf(value, new Map()) as T;
}
