import net from "node:net";

/** A TCP listener on 127.0.0.1 that forwards every connection to the server (socket or TCP). */
export interface PassThroughListener {
  /** The bound port. */
  readonly port: number;
  /** Stops listening and cuts every forwarded connection; idempotent. */
  close(): Promise<void>;
}

/** Options of {@link listenPassThrough}. */
export interface PassThroughOptions {
  /** Port to bind; 0 picks a free one (no race: the bound port is read back). */
  readonly port: number;
  /** Target: the server's `.s.PGSQL.5432` socket, or the host and port of an external server. */
  readonly target: { readonly path: string } | { readonly host: string; readonly port: number };
  /** What the port is for, used in the error when it is taken (e.g. `--pg-port`). */
  readonly label: string;
  /** Bind address. @default "127.0.0.1" */
  readonly host?: string;
}

/**
 * Binds a plain pass-through listener (instant.md §4: direct and pooled ports, one upstream
 * connection per client, no transaction pooling). A taken port rejects naming the port.
 */
export function listenPassThrough(options: PassThroughOptions): Promise<PassThroughListener> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(options.target);
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
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(
        err.code === "EADDRINUSE"
          ? new Error(`port ${options.port} (${options.label}) is already in use; choose another port or 0 for a free one`, { cause: err })
          : err,
      );
    });
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      // Listening alone never keeps the process alive (open connections still do).
      server.unref();
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : options.port;
      let closed: Promise<void> | null = null;
      resolve({
        port,
        close: () => {
          closed ??= new Promise<void>((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          });
          return closed;
        },
      });
    });
  });
}
