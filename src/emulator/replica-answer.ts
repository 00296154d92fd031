/**
 * The replica's answers in memory. A route answers through its context (`c.json`, `c.body`,
 * `c.text`, `c.newResponse`, with `c.header` and `c.status` before); on a socket that builds a web
 * `Response` whose body becomes a stream, and on the replica the client would read that stream
 * back in the same process, which cost about as much as the route's own work. On the replica
 * the app's first middleware ({@link answerInMemory}) gives each request a context whose answers
 * are {@link InMemoryAnswer}s: the same status, headers (a {@link ReplicaHeaders}) and text,
 * nothing else. Every check and route runs as before; only the answer's container differs. A body
 * that is not text (bytes, a stream) still gets a `Response`.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { EmulatorEnv } from "./http/env.js";
import { ReplicaHeaders } from "./replica-headers.js";

/** What undici gives a text body sent without a media type. */
const TEXT_BODY_TYPE = "text/plain;charset=UTF-8";
/** What Hono's `c.text` sets. */
const TEXT_TYPE = "text/plain; charset=UTF-8";

/** An answer built in memory: what a client reads of a `Response` (status, headers, body text). */
export class InMemoryAnswer {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** The body; `null` for none. */
    readonly text: string | null,
  ) {}

  /** The body as a stream, for code that rebuilds an answer from another (Hono's `c.res` setter). */
  get body(): ReadableStream<Uint8Array> | null {
    return this.text === null ? null : new Response(this.text).body;
  }

  /** The same answer as a web `Response`. */
  toResponse(): Response {
    return new Response(this.text, { status: this.status, headers: this.headers });
  }
}

type ResponseArg = number | ResponseInit | undefined;
type ExtraHeaders = Record<string, string | string[]> | undefined;

/**
 * Hono middleware, first on the replica's app: the request's context answers in memory. Headers
 * set before the answer go into it, as Hono's own context does; an answer built after another
 * (an error after a route answered) starts from that one's headers.
 */
export const answerInMemory: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
  const prepared: Headers = new ReplicaHeaders();
  let preparedStatus: number | undefined;
  const current = (): Headers => (c.finalized ? (c.res.headers as Headers) : prepared);
  const answer = (data: unknown, arg: ResponseArg, extra: ExtraHeaders): Response => {
    const headers = c.finalized ? new ReplicaHeaders(c.res.headers) : prepared;
    if (typeof arg === "object" && arg.headers !== undefined) {
      for (const [name, value] of new Headers(arg.headers)) {
        if (name === "set-cookie") headers.append(name, value);
        else headers.set(name, value);
      }
    }
    for (const [name, value] of Object.entries(extra ?? {})) {
      if (typeof value === "string") headers.set(name, value);
      else {
        headers.delete(name);
        for (const each of value) headers.append(name, each);
      }
    }
    const status = typeof arg === "number" ? arg : (arg?.status ?? preparedStatus ?? 200);
    if (data !== null && data !== undefined && typeof data !== "string") return new Response(data as ConstructorParameters<typeof Response>[0], { status, headers });
    if (typeof data === "string" && !headers.has("content-type")) headers.set("content-type", TEXT_BODY_TYPE);
    return new InMemoryAnswer(status, headers, data ?? null) as unknown as Response;
  };
  c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
    const headers = current();
    if (value === undefined) headers.delete(name);
    else if (options?.append === true) headers.append(name, value);
    else headers.set(name, value);
  }) as Context["header"];
  c.status = ((status: number) => {
    preparedStatus = status;
  }) as Context["status"];
  c.body = ((data: unknown, arg?: ResponseArg, extra?: ExtraHeaders) => answer(data, arg, extra)) as unknown as Context["body"];
  c.newResponse = c.body as unknown as Context["newResponse"];
  c.json = ((object: unknown, arg?: ResponseArg, extra?: ExtraHeaders) => answer(JSON.stringify(object), arg, { "Content-Type": "application/json", ...extra })) as unknown as Context["json"];
  c.text = ((text: string, arg?: ResponseArg, extra?: ExtraHeaders) => answer(text, arg, { "Content-Type": TEXT_TYPE, ...extra })) as unknown as Context["text"];
  await next();
};
