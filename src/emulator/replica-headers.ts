/**
 * The headers of a replica's in-memory requests (from its sender) and answers: a `Map` of values
 * by lower-case name with the `Headers` interface the emulator's app, Hono and the sender use. A
 * web `Headers` converts and checks every name and value through undici's web-IDL layer (about
 * 6 µs for a request's five headers, an answer's two and the reads between them, against about
 * 1.5 µs here); the sender's names and values come from the platform client, the answer's from
 * the emulator's routes. `fetch` on a replica still reads its request's headers as a `Headers`.
 */

/** A name's key: header names compare without case. */
function keyOf(name: string): string {
  return name.toLowerCase();
}

/** Headers as a web `Headers` reads them: `get` joins a name's values with ", ", iteration is by sorted name with each `set-cookie` apart. */
export class ReplicaHeaders implements Headers {
  private readonly byName = new Map<string, string[]>();

  /** Starts from `init`: a record (the sender's lower-case headers) or name-value pairs (another answer's headers). */
  constructor(init?: Readonly<Record<string, string>> | Iterable<readonly [string, string]>) {
    if (init === undefined) return;
    if (Symbol.iterator in init) {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
    } else {
      for (const name of Object.keys(init)) this.byName.set(keyOf(name), [(init as Readonly<Record<string, string>>)[name] as string]);
    }
  }

  get(name: string): string | null {
    return this.byName.get(keyOf(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(keyOf(name));
  }

  set(name: string, value: string): void {
    this.byName.set(keyOf(name), [String(value)]);
  }

  append(name: string, value: string): void {
    const key = keyOf(name);
    const list = this.byName.get(key);
    if (list === undefined) this.byName.set(key, [String(value)]);
    else list.push(String(value));
  }

  delete(name: string): void {
    this.byName.delete(keyOf(name));
  }

  getSetCookie(): string[] {
    return [...(this.byName.get("set-cookie") ?? [])];
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.byName.keys()].sort()) {
      const list = this.byName.get(name) ?? [];
      if (name === "set-cookie") for (const each of list) yield [name, each];
      else yield [name, list.join(", ")];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
