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

/**
 * The names replica requests and answers carry, as the platform client and the emulator spell
 * them, by key: each is a token, so finding a name here stands for the check and the lower-casing.
 */
const KNOWN_KEYS: ReadonlyMap<string, string> = new Map(
  ["accept", "authorization", "content-length", "content-type", "transfer-encoding", "user-agent", "x-request-id", "Allow", "Connection", "Content-Type", "Retry-After", "X-Request-ID"].map((name) => [name, name.toLowerCase()]),
);

/** A name's key: header names compare without case; a name that is not a token is refused. */
function keyOf(name: string): string {
  const known = KNOWN_KEYS.get(name);
  if (known !== undefined) return known;
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Invalid header name: ${JSON.stringify(text)}`);
  return text.toLowerCase();
}

/** Whether a character code is one of the padding `Headers` strips from a value's ends (space, tab, CR, LF); `NaN` (no character) is not. */
function isPadding(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A value as a `Headers` keeps it: without its padding; one holding CR, LF, NUL or a character past U+00FF is refused. */
function checkedValue(value: string): string {
  const given = String(value);
  const text = isPadding(given.charCodeAt(0)) || isPadding(given.charCodeAt(given.length - 1)) ? given.replace(PADDING, "") : given;
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError("Invalid header value: it holds CR, LF, NUL or a character past U+00FF");
  return text;
}

/**
 * Headers as a web `Headers` reads them: `get` joins a name's values with ", ", iteration is by
 * sorted name with each `set-cookie` apart. A name set once holds its value as a string (most
 * do), a list only once a second value is appended.
 */
export class ReplicaHeaders implements Headers {
  private readonly byName = new Map<string, string | string[]>();

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
    const held = this.byName.get(keyOf(name));
    return held === undefined ? null : typeof held === "string" ? held : held.join(", ");
  }

  has(name: string): boolean {
    return this.byName.has(keyOf(name));
  }

  set(name: string, value: string): void {
    this.byName.set(keyOf(name), checkedValue(value));
  }

  append(name: string, value: string): void {
    const key = keyOf(name);
    const text = checkedValue(value);
    const held = this.byName.get(key);
    if (held === undefined) this.byName.set(key, text);
    else if (typeof held === "string") this.byName.set(key, [held, text]);
    else held.push(text);
  }

  delete(name: string): void {
    this.byName.delete(keyOf(name));
  }

  getSetCookie(): string[] {
    const held = this.byName.get("set-cookie");
    return held === undefined ? [] : typeof held === "string" ? [held] : [...held];
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.byName.keys()].sort()) {
      const held = this.byName.get(name) ?? [];
      if (typeof held === "string") yield [name, held];
      else if (name === "set-cookie") for (const each of held) yield [name, each];
      else yield [name, held.join(", ")];
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
