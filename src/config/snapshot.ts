/**
 * The one read of user data: a policy's default export, and each value its branch closure
 * returns, is copied here exactly once into plain, deep, frozen data, and every later stage
 * (validation, resolution, the diff, every view) reads that copy, never the user's objects.
 *
 * - Each own enumerable string key is read once, so a getter runs once and cannot answer
 *   validation one thing and resolution another; symbol keys and non-enumerable properties
 *   are not data and are ignored.
 * - Every object of the copy has a null prototype, so a name such as `constructor` or
 *   `hasOwnProperty` is looked up as an entry, never through `Object.prototype`, and a polluted
 *   `Object.prototype` adds no key to it.
 * - `__proto__` (which a plain object cannot hold as an entry) is refused with its path.
 * - A Promise, Map, Set, Date, class instance or any other non-plain object is refused with its
 *   path: it is not data, and reading it as an object would silently see no keys.
 * - Functions (the branch closure, a custom bundler) are kept by reference, never called here;
 *   the policy schema refuses them wherever data is expected.
 *
 * A getter or Proxy trap that throws is an issue on its path, never an escaping exception.
 */
import type { ConfigIssue } from "../errors/index.js";
import { isReservedKey, reservedKeyIssue } from "../rules/names.js";
import { formatPath, messageOf } from "./issues.js";

/** Most objects and arrays one snapshot copies: a shared-reference bomb stops here. */
const MAX_NODES = 1_000_000;

/** The copy, or every issue found while reading (then `value` is `undefined`). */
export type SnapshotResult = { ok: true; value: unknown } | { ok: false; issues: ConfigIssue[]; cause?: unknown };

/**
 * Copies `value` as described above; issue paths start with `prefix` (`["branch"]` for a
 * closure's result).
 */
export function snapshotData(value: unknown, prefix: readonly PropertyKey[] = []): SnapshotResult {
  const reader = new SnapshotReader();
  const copy = reader.read(value, prefix);
  if (reader.issues.length === 0) return { ok: true, value: copy };
  return { ok: false, issues: reader.issues, ...(reader.thrown.length === 0 ? {} : { cause: reader.thrown[0] }) };
}

/**
 * Plain data the engine built (a schema's parsed output, a resolved policy) as frozen
 * null-prototype objects and frozen arrays, functions kept by reference. Unlike
 * {@link snapshotData} it trusts its input: no getters, no exotic objects.
 */
export function frozenData<T>(value: T): T {
  return freezeCopy(value) as T;
}

function freezeCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(freezeCopy));
  if (typeof value !== "object" || value === null || !isPlainPrototype(Object.getPrototypeOf(value))) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) out[key] = freezeCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(out);
}

/**
 * A prototype of plain data: none, or an `Object.prototype` (this realm's, or another's: an
 * object made by `vm` or a worker's structured clone is as plain as a literal).
 */
function isPlainPrototype(proto: unknown): boolean {
  if (proto === null || proto === Object.prototype) return true;
  try {
    const ctor = (proto as { constructor?: { name?: unknown; prototype?: unknown } }).constructor;
    return typeof proto === "object" && Object.getPrototypeOf(proto) === null && typeof ctor === "function" && ctor.name === "Object" && ctor.prototype === proto;
  } catch {
    return false;
  }
}

class SnapshotReader {
  readonly issues: ConfigIssue[] = [];
  /** What getters and traps threw, in order. */
  readonly thrown: unknown[] = [];
  private readonly copies = new Map<object, unknown>();
  private readonly inProgress = new Set<object>();
  private nodes = 0;

  read(value: unknown, path: readonly PropertyKey[]): unknown {
    if (typeof value !== "object" || value === null) return value;
    const done = this.copies.get(value);
    if (done !== undefined) return done;
    if (this.inProgress.has(value)) return this.refuse(path, "refers to itself (a cycle); policy data must be a tree");
    if (++this.nodes > MAX_NODES) return this.refuse(path, `has more than ${MAX_NODES} nested objects and arrays; policy data must be smaller`);
    const kind = this.kindOf(value, path);
    if (kind === undefined) return undefined;
    this.inProgress.add(value);
    try {
      const copy = kind === "array" ? this.readArray(value as readonly unknown[], path) : this.readObject(value, path);
      this.copies.set(value, copy);
      return copy;
    } finally {
      this.inProgress.delete(value);
    }
  }

  private kindOf(value: object, path: readonly PropertyKey[]): "array" | "object" | undefined {
    try {
      if (Array.isArray(value)) return "array";
      const proto: unknown = Object.getPrototypeOf(value);
      if (isPlainPrototype(proto)) return "object";
      return this.refuse(path, `is ${describeExotic(value)}, not plain data: ${EXOTIC_HINT}`);
    } catch (err) {
      return this.unreadable(path, err);
    }
  }

  private readArray(value: readonly unknown[], path: readonly PropertyKey[]): readonly unknown[] {
    let length: number;
    try {
      length = value.length;
    } catch (err) {
      this.unreadable(path, err);
      return Object.freeze([]);
    }
    const out: unknown[] = [];
    for (let index = 0; index < length; index++) {
      const itemPath = [...path, index];
      out.push(this.read(this.get(value, index, itemPath), itemPath));
    }
    return Object.freeze(out);
  }

  private readObject(value: object, path: readonly PropertyKey[]): Readonly<Record<string, unknown>> {
    const out: Record<string, unknown> = Object.create(null);
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch (err) {
      this.unreadable(path, err);
      return Object.freeze(out);
    }
    for (const key of keys) {
      const keyPath = [...path, key];
      if (isReservedKey(key)) {
        this.refuse(keyPath, reservedKeyIssue(key));
        continue;
      }
      out[key] = this.read(this.get(value, key, keyPath), keyPath);
    }
    return Object.freeze(out);
  }

  /** Reads one property exactly once; a throwing getter or trap is an issue. */
  private get(value: object, key: PropertyKey, path: readonly PropertyKey[]): unknown {
    try {
      return (value as Record<PropertyKey, unknown>)[key];
    } catch (err) {
      return this.unreadable(path, err);
    }
  }

  private unreadable(path: readonly PropertyKey[], err: unknown): undefined {
    this.thrown.push(err);
    return this.refuse(path, `could not be read: ${messageOf(err)}`);
  }

  private refuse(path: readonly PropertyKey[], message: string): undefined {
    this.issues.push({ path: formatPath(path), message });
    return undefined;
  }
}

const EXOTIC_HINT = "export and return plain objects, arrays, strings, numbers and booleans (await a value before defineConfig, spread a Map with Object.fromEntries)";

/** `a Promise`, `a Map`, `an instance of Foo`: what a non-plain object is, for messages. */
export function describeExotic(value: object): string {
  if (isThenable(value)) return "a Promise";
  if (value instanceof Map) return "a Map";
  if (value instanceof Set) return "a Set";
  if (value instanceof WeakMap || value instanceof WeakSet) return "a weak collection";
  if (value instanceof Date) return "a Date";
  if (value instanceof RegExp) return "a regular expression";
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return "binary data";
  const name = constructorName(value);
  return name === undefined ? "an object with a custom prototype" : `an instance of ${name}`;
}

function constructorName(value: object): string | undefined {
  try {
    const ctor: unknown = Object.getPrototypeOf(value)?.constructor;
    const name = typeof ctor === "function" ? ctor.name : undefined;
    return typeof name === "string" && /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

function isThenable(value: object): boolean {
  try {
    return typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false;
  }
}
