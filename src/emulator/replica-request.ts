/**
 * The request a replica's app reads: method, URL, the headers as given (with the body's
 * `content-length`, as a socket carries it) and a body already in memory, read as text, bytes or
 * form data as a `Request` reads them. A `Request` would copy the body into a stream to read it
 * back and follow the caller's signal, which together cost about as much as the emulator's own
 * answer to a small request; the replica checks the signal itself.
 */

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** What the emulator's app reads of a `Request`, over bytes in memory. */
class InMemoryRequest {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Headers,
    private readonly bytes: Uint8Array | null,
  ) {}

  text(): Promise<string> {
    return Promise.resolve(this.bytes === null ? "" : decoder.decode(this.bytes));
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const copy = new Uint8Array(this.bytes?.byteLength ?? 0);
    if (this.bytes !== null) copy.set(this.bytes);
    return Promise.resolve(copy.buffer);
  }

  formData(): Promise<FormData> {
    return new Response(this.bytes, { headers: { "content-type": this.headers.get("content-type") ?? "" } }).formData();
  }
}

/** A body the replica reads from memory: none, text (sent as UTF-8) or bytes. */
export type InMemoryBody = string | Uint8Array | null;

/**
 * The in-memory request for `method`, `url`, `headers` and `body`. The headers gain the body's
 * `content-length`, as a socket carries it: the emulator checks a body's media type and size by
 * its length.
 */
export function inMemoryRequest(method: string, url: string, headers: Headers, body: InMemoryBody): Request {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  if (bytes !== null) headers.set("content-length", String(bytes.byteLength));
  return new InMemoryRequest(method.toUpperCase(), new URL(url).href, headers, bytes) as unknown as Request;
}

/**
 * The request for `url` and `init`: an in-memory one for no body or a string or byte body (what
 * the platform client sends), a `Request` without the signal for any other body.
 */
export function replicaRequest(url: string, init: RequestInit = {}): Request {
  const { signal: _signal, ...rest } = init;
  const body = init.body;
  const bytes = typeof body === "string" || body instanceof Uint8Array ? body : body === undefined || body === null ? null : undefined;
  if (bytes === undefined) return new Request(url, rest);
  return inMemoryRequest(init.method ?? "GET", url, new Headers(init.headers), bytes);
}
