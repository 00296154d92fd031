import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { encodeMultipart } from "../../../src/api/multipart-body.js";
import { createProxyAwareFetch } from "../../../src/cli/http.js";

/** What the server received for one request. */
interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let origin = "";
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ deployment: { id: 7, status: "pending", runtime: "nodejs24" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The exact body the deployment route asks for, written out by hand. */
function expectedBody(boundary: string, zip: Uint8Array, runtime: string, environment: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="zip"; filename="bundle.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    Buffer.from(zip),
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="runtime"\r\n\r\n${runtime}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="environment"\r\n\r\n${environment}\r\n`),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

const fetches: { name: string; fetch: () => typeof globalThis.fetch | undefined }[] = [
  { name: "the default sender (Node's http, no fetch)", fetch: () => undefined },
  { name: "the built-in fetch", fetch: () => globalThis.fetch },
  { name: "undici's fetch", fetch: () => undiciFetch as unknown as typeof globalThis.fetch },
  // A proxy is configured, so the CLI's fetch goes through undici; the test server's host is in NO_PROXY.
  { name: "the CLI's proxy-aware fetch", fetch: () => createProxyAwareFetch({ HTTPS_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1" }) },
];

describe("deployment uploads with or without a fetch", () => {
  it.each(fetches)("sends the exact multipart body of a deployment through $name", async ({ fetch }) => {
    received.length = 0;
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const chosen = fetch();
    const api = createPlatformApi({ apiKey: "k", apiHost: origin, ...(chosen === undefined ? {} : { fetch: chosen }) });

    const deployment = await api.createDeployment({
      projectId: "calm-river-123456",
      branchId: "br-a-1",
      slug: "hello",
      zip,
      runtime: "nodejs24",
      environment: { API_URL: "https://x", QUOTE: 'say "hi"', OLD: "" },
    });

    expect(deployment.id).toBe(7);
    const request = received[0];
    if (request === undefined) throw new Error("no request reached the server");
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(request.headers["content-type"] ?? "")?.[1];
    if (boundary === undefined) throw new Error(`not a multipart content type: ${request.headers["content-type"]}`);
    const environment = '{"API_URL":"https://x","QUOTE":"say \\"hi\\"","OLD":""}';
    const body = expectedBody(boundary, zip, "nodejs24", environment);
    expect(request.body.equals(body)).toBe(true);
    expect(request.headers["content-length"]).toBe(String(body.length));
    expect(request.headers["transfer-encoding"]).toBeUndefined();
  });
});

describe("multipart encoding", () => {
  it("picks another boundary when a part's content contains the first one", () => {
    const boundaries = ["clash", "fresh"];
    const body = encodeMultipart([{ kind: "text", name: "runtime", value: "a--clash-b" }], () => boundaries.shift() ?? "never");
    expect(body.contentType).toBe("multipart/form-data; boundary=fresh");
    expect(Buffer.from(body.bytes).toString()).toBe('--fresh\r\nContent-Disposition: form-data; name="runtime"\r\n\r\na--clash-b\r\n--fresh--\r\n');
  });

  it("picks another boundary when a file's bytes contain the first one, keeping the bytes as given", () => {
    const boundaries = ["clash", "fresh"];
    const file = Uint8Array.from([0x00, 0xff, ...Buffer.from("--clash"), 0x0d, 0x0a]);
    const view = new Uint8Array(Uint8Array.from([9, 9, ...file, 9]).buffer, 2, file.length);

    const body = encodeMultipart([{ kind: "file", name: "zip", filename: "bundle.zip", contentType: "application/zip", bytes: view }], () => boundaries.shift() ?? "never");

    expect(body.contentType).toBe("multipart/form-data; boundary=fresh");
    const head = Buffer.from('--fresh\r\nContent-Disposition: form-data; name="zip"; filename="bundle.zip"\r\nContent-Type: application/zip\r\n\r\n');
    expect(Buffer.from(body.bytes).equals(Buffer.concat([head, file, Buffer.from("\r\n--fresh--\r\n")]))).toBe(true);
  });
});
