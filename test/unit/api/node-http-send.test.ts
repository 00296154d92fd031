import { getEventListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformApi, type PlatformApiOptions } from "../../../src/api/index.js";
import { MAX_ANSWER_BYTES } from "../../../src/api/node-http-send.js";
import { PROJECT, rejection } from "./helpers.js";

// The default sender (no `fetch` given) against a real loopback server, one handler per test.
const KEY = "secret-key-4f1c9e";
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let handler: Handler;
let requests: IncomingMessage[] = [];
/** The bodies the server read, in order. */
let bodies: Buffer[] = [];
let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => bodies.push(Buffer.concat(chunks)));
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  bodies = [];
});

function client(overrides: Partial<PlatformApiOptions> = {}): ReturnType<typeof createPlatformApi> {
  return createPlatformApi({ apiKey: KEY, apiHost: origin, sleep: async () => undefined, random: () => 0, ...overrides });
}

const projectBody = JSON.stringify({ project: PROJECT });

/** Every text an error carries: message, details and the messages of its causes. */
function everythingIn(err: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = err, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth += 1) {
    parts.push(at.message, JSON.stringify((at as { details?: unknown }).details ?? null));
  }
  return parts.join("\n");
}

describe("answers", () => {
  it.each([
    { encoding: "gzip", compress: gzipSync },
    { encoding: "br", compress: brotliCompressSync },
  ])("reads a $encoding answer, which the request says it accepts", async ({ encoding, compress }) => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding }).end(compress(projectBody));

    const project = await client().getProject({ projectId: PROJECT.id });

    expect(project.id).toBe(PROJECT.id);
    expect(requests[0]?.headers["accept-encoding"]).toContain(encoding);
  });

  it("refuses an answer in an encoding the request did not accept, and retries the read", async () => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "compress" }).end("x");

    const err = await rejection(client().getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(err.message).toContain("encoding not asked for (compress)");
    expect(requests).toHaveLength(5);
  });

  it("refuses an answer that inflates past the limit, without reading it whole", async () => {
    // Gzip members in a row inflate one after another: 1 MiB of zeros, compressed once, repeated.
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: MAX_ANSWER_BYTES / (1024 * 1024) + 1 }, () => member));
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb);

    const err = await rejection(client().getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(err.message).toContain(`the answer's body inflates past ${MAX_ANSWER_BYTES} bytes`);
  });

  it("takes an answer cut short as no answer, and retries the read", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(projectBody.length) });
        res.write(projectBody.slice(0, 10));
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(projectBody);
    };

    const project = await client().getProject({ projectId: PROJECT.id });

    expect(project.id).toBe(PROJECT.id);
    expect(requests).toHaveLength(2);
  });

  it("keeps the connection open between requests", async () => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(projectBody);
    const api = client();

    for (let i = 0; i < 5; i += 1) await api.getProject({ projectId: PROJECT.id });

    expect(requests).toHaveLength(5);
    expect(new Set(requests.map((req) => req.socket)).size).toBe(1);
  });
});

describe("redirects", () => {
  it("does not follow one: the key goes nowhere else and the error names where it pointed", async () => {
    let elsewhere = 0;
    const other = createServer((_req, res) => {
      elsewhere += 1;
      res.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    handler = (_req, res) => res.writeHead(307, { location: `${otherOrigin}/api/v2/projects/${PROJECT.id}?token=abc` }).end();

    const err = await rejection(client().getProject({ projectId: PROJECT.id }));
    await new Promise((resolve) => other.close(resolve));

    expect(elsewhere).toBe(0);
    expect(requests).toHaveLength(1);
    expect(err.code).toBe("PLATFORM_API_ERROR");
    expect(err.message).toContain(`redirect to ${otherOrigin}/api/v2/projects/${PROJECT.id}`);
    expect(err.message).toContain("set apiHost");
    expect(everythingIn(err)).not.toContain("token=abc");
  });
});

describe("time limits and cancellation", () => {
  it("gives a read that never answers five attempts of requestMs each, then PLATFORM_TIMEOUT", async () => {
    handler = () => undefined;

    const err = await rejection(client({ timeouts: { requestMs: 50 } }).getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_TIMEOUT");
    expect(requests).toHaveLength(5);
    expect(everythingIn(err)).not.toContain(KEY);
  });

  it("sends a mutation that never answers once and reports PLATFORM_OUTCOME_UNKNOWN", async () => {
    handler = () => undefined;

    const err = await rejection(client({ timeouts: { requestMs: 50 } }).createBucket({ projectId: PROJECT.id, branchId: "br-a-1", name: "media" }));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(requests).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(String(bodies[0]))).toMatchObject({ name: "media" });
    expect(requests[0]?.headers["content-length"]).toBe(String(bodies[0]?.length));
    expect(requests[0]?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("cancels every request in flight when the caller's signal aborts, with one listener on the signal", async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const api = client({ signal: controller.signal });
    const calls = Array.from({ length: 20 }, () => rejection(api.getProject({ projectId: PROJECT.id })));
    while (requests.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));

    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    const errors = await Promise.all(calls);

    expect(errors.map((e) => e.code)).toEqual(Array.from({ length: 20 }, () => "PLATFORM_CANCELLED"));
    expect(requests).toHaveLength(20);
  });

  it("resends a mutation whose connection never opened, and sends it once when it opens", async () => {
    // A port nothing listens on until the client's first wait: the first attempt's connect is refused.
    const late = createServer((req, res) => {
      requests.push(req);
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        bodies.push(Buffer.concat(chunks));
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ bucket: { name: "media", access_level: "private", created_at: "2026-01-01T00:00:00Z" } }));
      });
    });
    await new Promise<void>((resolve) => late.listen(0, "127.0.0.1", resolve));
    const port = (late.address() as AddressInfo).port;
    await new Promise((resolve) => late.close(resolve));
    const waits: number[] = [];
    const api = client({
      apiHost: `http://127.0.0.1:${port}`,
      sleep: async (ms) => {
        waits.push(ms);
        if (!late.listening) await new Promise<void>((resolve) => late.listen(port, "127.0.0.1", resolve));
      },
    });

    try {
      const bucket = await api.createBucket({ projectId: PROJECT.id, branchId: "br-a-1", name: "media" });

      expect(bucket).toMatchObject({ name: "media" });
      expect(waits).toEqual([100]);
      expect(bodies.map((b) => JSON.parse(String(b)))).toEqual([expect.objectContaining({ name: "media" })]);
    } finally {
      late.closeAllConnections();
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it("reports a mutation whose connection never opened as a network error after five attempts, not as an unknown outcome", async () => {
    let waits = 0;
    const api = client({ apiHost: "http://127.0.0.1:9", sleep: async () => void (waits += 1) });

    const err = await rejection(api.createBucket({ projectId: PROJECT.id, branchId: "br-a-1", name: "media" }));

    expect(err.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(err.message).toContain("ECONNREFUSED");
    expect(err.message).toContain("after 5 attempt(s)");
    expect(waits).toBe(4);
    expect(everythingIn(err)).not.toContain(KEY);
  });

  it("names the refused connection without the key when nothing listens", async () => {
    const err = await rejection(client({ apiHost: "http://127.0.0.1:9" }).getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(err.message).toContain("ECONNREFUSED");
    expect(everythingIn(err)).not.toContain(KEY);
  });
});
