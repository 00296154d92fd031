/**
 * The headers of a replica's in-memory requests (from its sender) and answers: a `Map` of values
 * by lower-case name with the `Headers` interface the emulator's app, Hono and the sender use. A
 * web `Headers` converts and checks every name and value through undici's web-IDL layer (about
 * 6 µs for a request's five headers, an answer's two and the reads between them, against about
 * 1.5 µs here); the sender's names and values come from the platform client, the answer's from
 * the emulator's routes. `fetch` on a replica still reads its request's headers as a `Headers`.
 * The checks stay (they add about 0.7 µs to that): a name that is not an HTTP token and a value
 * holding CR, LF, NUL or a character past U+00FF are refused with a `TypeError` as a `Headers`
 * refuses them, and a value loses its leading and trailing spaces, tabs, CRs and LFs as there.
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PADDING = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n\u0100-\uffff]/;

/** A name's key: header names compare without case; a name that is not a token is refused. */
function keyOf(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Invalid header name: ${JSON.stringify(text)}`);
  return text.toLowerCase();
}

/** A value as a `Headers` keeps it: without its padding; one holding CR, LF, NUL or a character past U+00FF is refused. */
function checkedValue(value: string): string {
  const text = String(value).replace(PADDING, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError("Invalid header value: it holds CR, LF, NUL or a character past U+00FF");
  return text;
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
      for (const name of Object.keys(init)) this.append(name, (init as Readonly<Record<string, string>>)[name] as string);
    }
  }

  get(name: string): string | null {
    return this.byName.get(keyOf(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(keyOf(name));
  }

  set(name: string, value: string): void {
    this.byName.set(keyOf(name), [checkedValue(value)]);
  }

  append(name: string, value: string): void {
    const key = keyOf(name);
    const text = checkedValue(value);
    const list = this.byName.get(key);
    if (list === undefined) this.byName.set(key, [text]);
    else list.push(text);
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
