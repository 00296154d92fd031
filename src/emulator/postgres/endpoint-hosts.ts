/**
 * Connectable endpoint hosts for `realDatabases`. A client of the platform builds its connection
 * string from an endpoint's `host` (`postgresql://<role>:<password>@<host>/<database>`) and the
 * pooled one by inserting `-pooler` after the endpoint id, with the branch's own role and database
 * names. Hosted, the platform's proxy routes by the endpoint id in the host name; here each
 * endpoint gets two Unix-socket directories, as the claimable hosts do (`local-hosts.ts`: no DNS,
 * no root): `/tmp/svc-endpoints-<id>/<endpoint id>.pg` and `…/<endpoint id>-pooler.pg`, written
 * percent-encoded so they sit in a URL's host. A connection there is routed like the platform's
 * proxy does: its startup message names the branch's role and database, which this proxy rewrites
 * to their physical names on the shared server before passing the connection through.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PassThroughTarget } from "./tcp-proxy.js";
import { fatalError, readFirstMessage, startupMessage } from "./startup-message.js";

/** Where a startup message goes: the server and the physical names, or a refusal for the client. */
export type StartupRoute = { target: PassThroughTarget; user: string; database: string } | { sqlstate: string; message: string };

/** What the endpoint hosts need from the emulator. */
export interface EndpointHostsOptions {
  /** Keeps the directory across restarts (the data dir's cluster root), since `.env` files hold it. */
  stableKey: string | null;
  /** Routes a connection to `endpointId` that asks for `user` and `database` (the branch's names). */
  route(endpointId: string, user: string, database: string): Promise<StartupRoute>;
  /** The server, for cancel requests (they carry a backend key, no names). */
  server(): Promise<PassThroughTarget>;
  log(line: string): void;
}

/** The hosts of one endpoint, as its records carry them. */
export interface EndpointHostNames {
  host: string;
  poolerHost: string;
}

/** Connectable hosts for endpoints, listening from the first time an endpoint's hosts are asked for. */
export interface EndpointHosts {
  /** The endpoint's direct and pooled hosts; starts listening on them (see {@link ready}). */
  hostsOf(endpointId: string): EndpointHostNames;
  /** Resolves once every listener asked for so far listens (or failed, which is logged). */
  ready(): Promise<void>;
  /** Stops every listener and removes the directories; idempotent. */
  close(): Promise<void>;
}

/** The socket file libpq and `pg` look for in a host directory when the URL gives no port. */
const SOCKET_FILE = ".s.PGSQL.5432";

/** Creates the endpoint hosts (nothing listens until {@link EndpointHosts.hostsOf} is called). */
export function createEndpointHosts(options: EndpointHostsOptions): EndpointHosts {
  const parent = tmpdir().includes(".") ? "/tmp" : tmpdir();
  const id = options.stableKey === null ? randomBytes(6).toString("hex") : createHash("sha256").update(`endpoints:${options.stableKey}`).digest("hex").slice(0, 12);
  const base = path.join(parent, `svc-endpoints-${id}`);
  const listening = new Map<string, Promise<void>>();
  const closers: (() => Promise<void>)[] = [];
  const open = new Set<net.Socket>();
  let closed: Promise<void> | null = null;

  const listen = async (endpointId: string, dir: string): Promise<void> => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const server = net.createServer((client) => {
      open.add(client);
      client.on("close", () => open.delete(client));
      routeConnection(client, endpointId, options);
    });
    server.unref();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      void rm(path.join(dir, SOCKET_FILE), { force: true }).then(() => server.listen(path.join(dir, SOCKET_FILE), resolve), reject);
    });
    closers.push(() => new Promise<void>((done) => server.close(() => done())));
  };

  return {
    hostsOf(endpointId) {
      const direct = path.join(base, `${endpointId}.pg`);
      const pooled = path.join(base, `${endpointId}-pooler.pg`);
      if (!listening.has(endpointId) && closed === null) {
        const started = Promise.all([listen(endpointId, direct), listen(endpointId, pooled)]).then(
          () => undefined,
          (err: unknown) => options.log(`warning: endpoint ${endpointId} cannot listen on ${direct}: ${err instanceof Error ? err.message : String(err)}`),
        );
        listening.set(endpointId, started);
      }
      return { host: encodeURIComponent(direct), poolerHost: encodeURIComponent(pooled) };
    },
    ready: async () => {
      await Promise.all(listening.values());
    },
    close: () => {
      closed ??= (async () => {
        await Promise.all(listening.values());
        for (const client of open) client.destroy();
        await Promise.all(closers.map((close) => close()));
        await rm(base, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}

/**
 * Reads a connection's first messages, answers encryption requests with "no", then connects it to
 * the server with the startup message rewritten (or refuses it with a FATAL error the client shows).
 */
function routeConnection(client: net.Socket, endpointId: string, options: EndpointHostsOptions): void {
  let buffered = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const first = readFirstMessage(buffered);
      if (first.kind === "incomplete") return;
      if (first.kind === "encryption-request") {
        client.write("N");
        buffered = buffered.subarray(first.length);
        continue;
      }
      client.off("data", onData);
      client.pause();
      if (first.kind === "invalid") {
        client.end(fatalError("08P01", `the local endpoint ${endpointId} cannot read ${first.reason}`));
        return;
      }
      const rest = buffered;
      const route: Promise<StartupRoute> =
        first.kind === "cancel"
          ? options.server().then((target) => ({ target, user: "", database: "" }))
          : options.route(endpointId, first.parameters.get("user") ?? "", first.parameters.get("database") ?? first.parameters.get("user") ?? "");
      void route.then(
        (routed) => {
          if ("sqlstate" in routed) return void client.end(fatalError(routed.sqlstate, routed.message));
          const opening = first.kind === "startup" ? Buffer.concat([startupMessage(new Map([...first.parameters, ["user", routed.user], ["database", routed.database]])), rest.subarray(first.length)]) : rest;
          connectThrough(client, routed.target, opening);
        },
        (err: unknown) => {
          options.log(`warning: a connection to endpoint ${endpointId} failed: ${err instanceof Error ? err.message : String(err)}`);
          client.end(fatalError("08006", `the local endpoint ${endpointId} could not reach its database: ${err instanceof Error ? err.message : String(err)}`));
        },
      );
      return;
    }
  };
  client.on("data", onData);
}

/** Sends `opening` to the server, then passes bytes both ways until either side closes. */
function connectThrough(client: net.Socket, target: PassThroughTarget, opening: Buffer): void {
  const upstream = net.connect(target);
  const finish = (): void => {
    client.destroy();
    upstream.destroy();
  };
  upstream.on("error", finish).on("close", finish);
  client.on("close", finish);
  upstream.write(opening);
  client.pipe(upstream);
  upstream.pipe(client);
  client.resume();
}
