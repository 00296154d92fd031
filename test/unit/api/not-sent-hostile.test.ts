/**
 * Hostile rows of the "never sent" classification: only a connection that never opened makes a
 * mutation safe to resend. A connection that opened and then failed (reset at once, reset after
 * the request arrived, closed without an answer, a keep-alive socket the server dropped) may have
 * delivered the request: it is sent once and reported as an unknown outcome, never resent.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { PROJECT, rejection } from "./helpers.js";

const KEY = "secret-key-hostile-77";
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A raw TCP server that counts the request heads it received and treats each connection as `onConnection` says. */
async function rawServer(onConnection: (socket: Socket) => void): Promise<{ origin: string; heads: () => number }> {
  let heads = 0;
  const server: TcpServer = createTcpServer((socket) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      const before = (text.match(/^POST /gm) ?? []).length;
      text += chunk.toString("latin1");
      heads += (text.match(/^POST /gm) ?? []).length - before;
    });
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads: () => heads };
}

function client(origin: string, waits: number[]): ReturnType<typeof createPlatformApi> {
  return createPlatformApi({ apiKey: KEY, apiHost: origin, sleep: async (ms) => void waits.push(ms), random: () => 0 });
}

const create = (api: ReturnType<typeof createPlatformApi>) => api.createBucket({ projectId: PROJECT.id, branchId: "br-a-1", name: "media" });

describe("a mutation whose connection opened is never resent", () => {
  it("a connection reset before the client saw it open (connect ECONNRESET) was never written: resent, and no request ever arrived", async () => {
    const { origin, heads } = await rawServer((socket) => socket.resetAndDestroy());
    const waits: number[] = [];

    const err = await rejection(create(client(origin, waits)));

    // Node reports the reset as the connect's own failure when it comes first; were it later, the request could have arrived.
    if (err.code === "PLATFORM_NETWORK_ERROR") expect(heads()).toBe(0);
    else expect([err.code, heads() <= 1, waits]).toEqual(["PLATFORM_OUTCOME_UNKNOWN", true, []]);
  });

  it.each([
    ["reset once the request arrived", (socket: Socket) => socket.once("data", () => setTimeout(() => socket.resetAndDestroy(), 20))],
    ["closed without an answer once the request arrived", (socket: Socket) => socket.once("data", () => setTimeout(() => socket.end(), 20))],
    ["answered with half a status line, then closed", (socket: Socket) => socket.once("data", () => socket.end("HTTP/1.1 20"))],
  ])("connection %s: sent once, PLATFORM_OUTCOME_UNKNOWN, no wait", async (_name, onConnection) => {
    const { origin, heads } = await rawServer(onConnection);
    const waits: number[] = [];

    const err = await rejection(create(client(origin, waits)));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(heads()).toBe(1);
    expect(waits).toEqual([]);
  });

  it("a keep-alive connection the server dropped after answering: the next mutation on it is not resent", async () => {
    let served = 0;
    let heads = 0;
    const server: Server = createHttpServer((req, res) => {
      heads += 1;
      req.resume();
      served += 1;
      if (served === 1) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ project: PROJECT }));
        return;
      }
      // The second request arrives on the kept connection; the server drops it without an answer.
      req.socket.resetAndDestroy();
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const waits: number[] = [];
    const api = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, waits);
    await api.getProject({ projectId: PROJECT.id });

    const err = await rejection(create(api));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(heads).toBe(2);
    expect(waits).toEqual([]);
  });
});
