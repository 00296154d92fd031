/**
 * One HTTP attempt as the transport sees it: a request that is fully built (URL, headers, body),
 * a time limit and the caller's signal in; the status, a header lookup and the body text out.
 * Two senders implement it: `node-http-send.ts` (the default, Node's `http`/`https` with a
 * keep-alive agent) and {@link fetchSend} over an injected `fetch`. Neither follows a redirect: a
 * 3xx comes back as an answer like any other status.
 */

/** A request ready to send. `headers` hold lower-case names; `body` is sent with its length. */
export interface HttpExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The attempt's whole time limit: connecting, sending and reading the body. */
  timeoutMs: number;
  /** The caller's signal: aborting it ends the attempt. */
  signal?: AbortSignal;
}

/** A response read to its end. */
export interface HttpAnswer {
  status: number;
  /** The value of a response header (lower-case name), `null` when absent. */
  header: (name: string) => string | null;
  /** The body decoded as UTF-8 (a leading byte order mark dropped). */
  text: string;
}

/**
 * Sends one attempt. Resolves with any status; rejects when no whole answer came: with an
 * {@link AttemptTimeoutError} past `timeoutMs`, with the signal's reason, with a
 * {@link NotSentError} when the sender knows the connection never opened, or with the network
 * error otherwise.
 */
export type HttpSend = (exchange: HttpExchange) => Promise<HttpAnswer>;

/**
 * The attempt's connection never opened (its `connect` or name lookup failed, for example
 * `connect EMFILE` or `ECONNREFUSED`), so no byte of the request left the process: resending it
 * cannot apply it twice, whatever its method. The message is the cause's.
 */
export class NotSentError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = "NotSentError";
  }
}

/** No whole answer within the attempt's time limit. */
export class AttemptTimeoutError extends Error {
  constructor(limitMs: number, options?: { cause?: unknown }) {
    super(`no answer within ${limitMs} ms`, options);
    this.name = "AttemptTimeoutError";
  }
}

/**
 * A sender over a WHATWG `fetch` (a test double, a proxy-aware fetch, an in-process app): the
 * attempt's time limit is one timer on the attempt's own controller, which the caller's signal
 * aborts too; both are released when the attempt ends (an `AbortSignal.timeout` would hold its
 * timer and signal for the whole limit, 30 s by default, after a quick answer).
 */
export function fetchSend(fetchImpl: typeof globalThis.fetch): HttpSend {
  return async (exchange) => {
    const caller = exchange.signal;
    if (caller?.aborted) throw caller.reason;
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort(new DOMException(`no answer within ${exchange.timeoutMs} ms`, "TimeoutError"));
    }, exchange.timeoutMs);
    const onAbort = (): void => attempt.abort(caller?.reason);
    caller?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await fetchImpl(exchange.url, {
        method: exchange.method,
        headers: exchange.headers,
        body: exchange.body,
        signal: attempt.signal,
        redirect: "manual",
      });
      const text = await response.text();
      return { status: response.status, header: (name) => response.headers.get(name), text };
    } catch (cause) {
      if (timedOut && !caller?.aborted) throw new AttemptTimeoutError(exchange.timeoutMs, { cause });
      throw cause;
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    }
  };
}
