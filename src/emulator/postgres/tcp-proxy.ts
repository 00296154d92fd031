import { unlink } from "node:fs/promises";
import net from "node:net";

/** A local listener (TCP on 127.0.0.1, or a Unix socket) that forwards every connection to the server. */
export interface PassThroughListener {
  /** The bound TCP port (0 for a Unix socket). */
  readonly port: number;
  /** Stops listening and cuts every forwarded connection; idempotent. */
  close(): Promise<void>;
}

/** Where a listener forwards to: the server's `.s.PGSQL.5432` socket, or an external server's host and port. */
export type PassThroughTarget = { readonly path: string } | { readonly host: string; readonly port: number };

/** Options of {@link listenPassThrough}. */
export interface PassThroughOptions {
  /** Port to bind; 0 picks a free one (no race: the bound port is read back). */
  readonly port: number;
  readonly target: PassThroughTarget;
  /** What the port is for, used in the error when it is taken (e.g. `--pg-port`). */
  readonly label: string;
  /** Bind address. @default "127.0.0.1" */
  readonly host?: string;
}

function forwardingServer(target: PassThroughTarget): { server: net.Server; open: Set<net.Socket> } {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    open.add(client);
    open.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const finish = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", finish).on("close", finish);
    upstream.on("error", finish).on("close", finish);
  });
  return { server, open };
}

function listening(server: net.Server, open: Set<net.Socket>, port: number): PassThroughListener {
  // Listening alone never keeps the process alive (open connections still do).
  server.unref();
  let closed: Promise<void> | null = null;
  return {
    port,
    close: () => {
      closed ??= new Promise<void>((done) => {
        for (const socket of open) socket.destroy();
        server.close(() => done());
      });
      return closed;
    },
  };
}

/**
 * Binds a plain pass-through listener (direct and pooled ports, one upstream
 * connection per client, no transaction pooling). A taken port rejects naming the port.
 */
export function listenPassThrough(options: PassThroughOptions): Promise<PassThroughListener> {
  const { server, open } = forwardingServer(options.target);
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(
        err.code === "EADDRINUSE"
          ? new Error(`port ${options.port} (${options.label}) is already in use; choose another port or 0 for a free one`, { cause: err })
          : err,
      );
    });
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      const address = server.address();
      resolve(listening(server, open, typeof address === "object" && address !== null ? address.port : options.port));
    });
  });
}

/**
 * Binds a pass-through listener on the Unix socket `socketPath` (its directory must exist). A
 * socket file left by a killed run is replaced; closing removes the file.
 */
export async function listenPassThroughSocket(socketPath: string, target: PassThroughTarget): Promise<PassThroughListener> {
  await unlink(socketPath).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "ENOENT") throw err;
  });
  const { server, open } = forwardingServer(target);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve(listening(server, open, 0)));
  });
}
