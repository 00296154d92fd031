/**
 * The default sender: Node's `http`/`https` modules over one keep-alive agent per protocol for
 * the process, with no `Request`/`Response` objects, web streams or abort signals per attempt
 * (about 0.8 ms of CPU a request through `fetch`). The attempt's time limit is one timer; the
 * caller's signal has one listener however many attempts are in flight. Bodies go with their
 * `Content-Length`; answers compressed with gzip or brotli (what the request accepts) are
 * inflated; a body past {@link MAX_ANSWER_BYTES}, compressed or not, ends the attempt. An error
 * before the attempt's socket connected (a failed `connect` or name lookup) rejects with a
 * `NotSentError`: nothing was written to the network.
 */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { brotliDecompress, gunzip } from "node:zlib";
import { AttemptTimeoutError, fetchSend, type HttpAnswer, type HttpSend, NotSentError } from "./http-exchange.js";

/** Largest answer body read, before and after decompression: 64 MiB. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

type RequestFn = (url: URL, options: RequestOptions, onResponse: (res: IncomingMessage) => void) => ClientRequest;

interface Protocol {
  request: RequestFn;
  agent: Agent;
}

/**
 * Idle sockets are kept 4 s (less when the server's `Keep-Alive` hint says so), under the usual
 * 5 s a server keeps them, so a request is not sent on a socket the server is closing.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000 };

const protocols = new Map<string, Promise<Protocol>>();

/** `node:https` (and TLS) is loaded with the first https request only. */
function protocolFor(scheme: string): Promise<Protocol> {
  let found = protocols.get(scheme);
  if (found === undefined) {
    found =
      scheme === "https:"
        ? import("node:https").then((m) => ({ request: m.request, agent: new m.Agent(AGENT_OPTIONS) }))
        : import("node:http").then((m) => ({ request: m.request, agent: new m.Agent(AGENT_OPTIONS) }));
    protocols.set(scheme, found);
  }
  return found;
}

/** In-flight requests of each caller signal, so a signal gets one `abort` listener. */
const inFlight = new WeakMap<AbortSignal, Set<ClientRequest>>();

function follow(signal: AbortSignal, req: ClientRequest): () => void {
  let requests = inFlight.get(signal);
  if (requests === undefined) {
    const set = new Set<ClientRequest>();
    requests = set;
    inFlight.set(signal, set);
    signal.addEventListener("abort", () => {
      for (const each of set) each.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      set.clear();
    }, { once: true });
  }
  requests.add(req);
  return () => requests.delete(req);
}

const decoder = new TextDecoder();

/** The sender of a client: over the caller's `fetch` when given one, else {@link nodeHttpSend}. */
export function senderFor(fetchImpl: typeof globalThis.fetch | undefined): HttpSend {
  return fetchImpl === undefined ? nodeHttpSend : fetchSend(fetchImpl);
}

/** The default {@link HttpSend}. */
export const nodeHttpSend: HttpSend = async (exchange) => {
  if (exchange.signal?.aborted) throw exchange.signal.reason;
  const url = new URL(exchange.url);
  const { request, agent } = await protocolFor(url.protocol);
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    let timeoutError: AttemptTimeoutError | undefined;
    const headers: Record<string, string> = { ...exchange.headers, "accept-encoding": "gzip, br" };
    if (exchange.body !== undefined) headers["content-length"] = String(Buffer.byteLength(exchange.body));
    const req = request(url, { method: exchange.method, headers, agent }, (res) => {
      readAnswer(res).then(
        (answer) => finish(() => resolve(answer)),
        (err: unknown) => fail(err),
      );
    });
    const unfollow = exchange.signal === undefined ? () => undefined : follow(exchange.signal, req);
    const timer = setTimeout(() => {
      timeoutError = new AttemptTimeoutError(exchange.timeoutMs);
      req.destroy(timeoutError);
    }, exchange.timeoutMs);
    function finish(settle: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unfollow();
      settle();
    }
    function fail(err: unknown): void {
      const failure = timeoutError ?? (!exchange.signal?.aborted && failedToConnect(err) ? new NotSentError(err) : err);
      finish(() => reject(failure));
    }
    req.on("error", fail);
    req.end(exchange.body);
  });
};

/** The system calls that fail before a connection exists. */
const CONNECTING_CALLS: ReadonlySet<unknown> = new Set(["connect", "getaddrinfo"]);

/**
 * Whether `err` is a failed connect or name lookup (those of an `AggregateError`, when Node tried
 * several addresses): the socket never connected, so nothing of the request was written (a reused
 * socket is connected already; a failure after connecting names another call or none).
 */
function failedToConnect(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  const each: unknown[] = err instanceof AggregateError ? err.errors : [err];
  return each.length > 0 && each.every((e) => typeof e === "object" && e !== null && CONNECTING_CALLS.has((e as { syscall?: unknown }).syscall));
}

/** Reads a response to its end: refuses a body cut short, one too large, or one in an encoding not asked for. */
function readAnswer(res: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) res.destroy(new Error(`the answer's body is over ${MAX_ANSWER_BYTES} bytes`));
      else chunks.push(chunk);
    });
    res.on("error", reject);
    res.on("close", () => {
      if (!res.complete) reject(new Error("the connection closed before the whole answer came"));
    });
    res.on("end", () => {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      decoded(raw, res.headers["content-encoding"]).then((body) => {
        const headers = res.headers;
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = headers[name];
            return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
          },
          text: decoder.decode(body),
        });
      }, reject);
    });
  });
}

type Inflate = (buffer: Buffer, callback: (error: Error | null, result: Buffer) => void) => void;

const limit = { maxOutputLength: MAX_ANSWER_BYTES };
const gunzipLimited: Inflate = (buffer, callback) => gunzip(buffer, limit, callback);
const INFLATE: Record<string, Inflate> = {
  gzip: gunzipLimited,
  "x-gzip": gunzipLimited,
  br: (buffer, callback) => brotliDecompress(buffer, limit, callback),
};

function decoded(raw: Buffer, encoding: string | undefined): Promise<Buffer> {
  const name = (encoding ?? "identity").trim().toLowerCase();
  if (name === "identity" || name === "") return Promise.resolve(raw);
  const inflate = Object.hasOwn(INFLATE, name) ? INFLATE[name] : undefined;
  if (inflate === undefined) return Promise.reject(new Error(`the answer is in an encoding not asked for (${name.slice(0, 40)})`));
  return new Promise((resolve, reject) => {
    inflate(raw, (error, result) => {
      if (error === null) resolve(result);
      else reject((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? new Error(`the answer's body inflates past ${MAX_ANSWER_BYTES} bytes`) : error);
    });
  });
}
