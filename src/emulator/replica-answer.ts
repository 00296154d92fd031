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

/** What a request's context holds for its answer until the answer is built: the headers and status set before it. */
interface PreparedAnswer {
  headers: Headers;
  status: number | undefined;
}

/** Where a context answering in memory keeps its {@link PreparedAnswer}. */
const PREPARED = Symbol("replica prepared answer");

/** A request's context once {@link answerInMemory} has run: its answer methods read `this`. */
type AnsweringContext = Context<EmulatorEnv> & { [PREPARED]: PreparedAnswer };

/** The headers an answer starts from: those set before it, or, after another answer (an error after a route answered), a copy of that one's. */
function startingHeaders(c: AnsweringContext): Headers {
  return c.finalized ? new ReplicaHeaders(c.res.headers) : c[PREPARED].headers;
}

/**
 * The answer to `data`: `arg`'s headers, then `type` as the content type when given, then
 * `extra`'s (each replacing what came before, a list replacing all of a name's values).
 */
function answer(c: AnsweringContext, data: unknown, arg: ResponseArg, type: string | undefined, extra: ExtraHeaders): Response {
  const headers = startingHeaders(c);
  if (typeof arg === "object" && arg.headers !== undefined) {
    for (const [name, value] of new Headers(arg.headers)) {
      if (name === "set-cookie") headers.append(name, value);
      else headers.set(name, value);
    }
  }
  if (type !== undefined) headers.set("content-type", type);
  if (extra !== undefined) {
    for (const name of Object.keys(extra)) {
      const value = extra[name] as string | string[];
      if (typeof value === "string") headers.set(name, value);
      else {
        headers.delete(name);
        for (const each of value) headers.append(name, each);
      }
    }
  }
  const status = typeof arg === "number" ? arg : (arg?.status ?? c[PREPARED].status ?? 200);
  if (data !== null && data !== undefined && typeof data !== "string") return new Response(data as ConstructorParameters<typeof Response>[0], { status, headers });
  if (typeof data === "string" && !headers.has("content-type")) headers.set("content-type", TEXT_BODY_TYPE);
  return new InMemoryAnswer(status, headers, data ?? null) as unknown as Response;
}

// The context's answer methods, shared by every request (a request's own state is under
// `PREPARED`): called as methods of the context, as Hono's own are.
function setHeader(this: AnsweringContext, name: string, value?: string, options?: { append?: boolean }): void {
  const headers = this.finalized ? (this.res.headers as Headers) : this[PREPARED].headers;
  if (value === undefined) headers.delete(name);
  else if (options?.append === true) headers.append(name, value);
  else headers.set(name, value);
}

function setStatus(this: AnsweringContext, status: number): void {
  this[PREPARED].status = status;
}

function body(this: AnsweringContext, data: unknown, arg?: ResponseArg, extra?: ExtraHeaders): Response {
  return answer(this, data, arg, undefined, extra);
}

function json(this: AnsweringContext, object: unknown, arg?: ResponseArg, extra?: ExtraHeaders): Response {
  return answer(this, JSON.stringify(object), arg, "application/json", extra);
}

function text(this: AnsweringContext, data: string, arg?: ResponseArg, extra?: ExtraHeaders): Response {
  return answer(this, data, arg, TEXT_TYPE, extra);
}

/**
 * Hono middleware, first on the replica's app: the request's context answers in memory. Headers
 * set before the answer go into it, as Hono's own context does; an answer built after another
 * (an error after a route answered) starts from that one's headers.
 */
export const answerInMemory: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
  const answering = c as AnsweringContext;
  answering[PREPARED] = { headers: new ReplicaHeaders(), status: undefined };
  c.header = setHeader as Context["header"];
  c.status = setStatus as Context["status"];
  c.body = body as unknown as Context["body"];
  c.newResponse = body as unknown as Context["newResponse"];
  c.json = json as unknown as Context["json"];
  c.text = text as unknown as Context["text"];
  await next();
};
