/**
 * Node's HTTP objects to Web `Request`/`Response` and back, streaming both ways: a request body is
 * read only as the handler reads it, a response body is written chunk by chunk as it is produced
 * (so server-sent events reach the caller at once), with back-pressure, and a caller that goes
 * away cancels the response stream and aborts `request.signal`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** The request URL: the path the caller used on the `Host` it named, else on the listening address. */
export function requestUrl(req: IncomingMessage, fallbackHost: string): URL {
  const target = req.url ?? "/";
  const path = target.startsWith("/") ? target : pathOfAbsoluteForm(target);
  const host = req.headers.host;
  if (host !== undefined && host !== "") {
    try {
      const url = new URL(`http://${host}${path}`);
      // A Host header that smuggles a path or credentials is not a host: use the listening address.
      if (url.host.toLowerCase() === host.toLowerCase()) return url;
    } catch {
      // An unparsable Host header: fall through.
    }
  }
  return new URL(`http://${fallbackHost}${path}`);
}

function pathOfAbsoluteForm(target: string): string {
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return `/${target}`;
  }
}

/** The Web `Request` of a Node request; `signal` aborts when the caller goes away. */
export function toWebRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    // HTTP/2 pseudo-headers never reach an HTTP/1 server; skip anything Headers would refuse.
    try {
      headers.append(name, raw[i + 1] ?? "");
    } catch {
      // An invalid header name or value: Node already parsed it leniently; the handler does not see it.
    }
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** Header pairs for `writeHead`, keeping every `set-cookie` separate. */
function headerPairs(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of headers) if (name !== "set-cookie") pairs.push([name, value]);
  for (const cookie of headers.getSetCookie()) pairs.push(["set-cookie", cookie]);
  return pairs;
}

/**
 * Writes `response` to `res`: status, headers (flushed at once), then the body as it streams.
 * Resolves when the body is fully written or the caller went away (the stream is then
 * cancelled); rejects when the body stream fails (the caller's connection is then destroyed).
 */
export async function writeWebResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  res.writeHead(response.status, response.statusText, headerPairs(response.headers).flat());
  if (response.body === null || method === "HEAD") {
    await response.body?.cancel().catch(() => undefined);
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const gone = (): void => void reader.cancel().catch(() => undefined);
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await waitForDrain(res);
    }
    res.end();
  } catch (err) {
    res.destroy();
    throw err;
  } finally {
    res.off("close", gone);
  }
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
