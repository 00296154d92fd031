import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Pool, PoolConfig } from "pg";
import { ErrorCode, PlatformError } from "../../errors/index.js";
import * as sql from "./admin-sql.js";
import { loadPgPool } from "./load-pg.js";
import { firstUntraversable, planClusterLayout, readStoredPorts, readSuperPassword, writeStoredPorts, writeSuperPassword } from "./layout.js";
import { listenLocalHosts, socketHostUrl, type LocalHosts } from "./local-hosts.js";
import { startSupervisor, type SupervisorHandle } from "./supervisor.js";
import { listenPassThrough, type PassThroughListener } from "./tcp-proxy.js";
import { isRoot } from "./unix-user.js";

export type { DatabaseSpec, ServerDatabase } from "./admin-sql.js";

/** Options of {@link createPostgresBackend}. */
export interface PostgresBackendOptions {
  /** `"embedded"` (default) or the URL of an external server with CREATEROLE and CREATEDB. */
  readonly postgres?: "embedded" | string;
  /** Emulator data directory: the cluster lives in `DATA_DIR/pg` and survives restarts. */
  readonly dataDir?: string;
  /** Local direct port. @default 0 (a free port, or the one stored in `DATA_DIR/pg/ports.json`) */
  readonly pgPort?: number;
  /** Local pooled port. @default 0 (as `pgPort`) */
  readonly poolerPort?: number;
  /** The emulator's log (warnings, the supervisor's stderr). @default discard */
  readonly log?: (line: string) => void;
}

/** Facts about the running server. */
export interface BackendInfo {
  readonly kind: "embedded" | "external";
  /** Major version, e.g. 17. */
  readonly majorVersion: number;
  /** `wal_level` of the server. */
  readonly walLevel: string;
  /** The direct port (the external server's own port for `--postgres URL`). */
  readonly directPort: number;
  /** The local pooled port. */
  readonly pooledPort: number;
  /** Host of direct URLs: `127.0.0.1`, or the external server's own host. */
  readonly directHost: string;
  /** `sslmode` of TCP URLs (`disable` for the embedded server), or null for none. */
  readonly sslmode: string | null;
  /** The socket-directory hosts of claimable connection strings (see `local-hosts.ts`). */
  readonly hosts: { readonly direct: string; readonly pooled: string };
}

/** Both connection strings of a database: the pooled host is the direct one with `-pooler` in its first label. */
export interface ConnectionUrls {
  readonly direct: string;
  readonly pooled: string;
}

/**
 * The PostgreSQL server behind claimable databases. Nothing starts until {@link start} (or the
 * first call that needs the server); one start is shared by concurrent callers, and a failed
 * start is retried by the next call.
 */
export interface PostgresBackend {
  /** Starts the server and the local listeners; idempotent. */
  start(): Promise<BackendInfo>;
  /** The running server's facts, or null before a successful start. */
  info(): BackendInfo | null;
  /** Creates the role and the database; resolves with their connection strings. */
  createDatabase(spec: sql.DatabaseSpec): Promise<ConnectionUrls>;
  /** Connection strings of an existing database (server started). */
  connectionUrls(name: string, password: string): ConnectionUrls;
  /** Terminates sessions and drops the database and its role (missing ones are fine). */
  dropDatabase(name: string): Promise<void>;
  /** `pg_database_size` in bytes. */
  databaseSize(name: string): Promise<number>;
  /** Sets or lifts `default_transaction_read_only` for the database. */
  setReadOnly(name: string, readOnly: boolean): Promise<void>;
  /** Databases whose name starts with `prefix`, with their comments. */
  listDatabases(prefix: string): Promise<sql.ServerDatabase[]>;
  /**
   * Runs one statement as the superuser (starting the server when needed): on the `postgres`
   * database, or on `database` over a short-lived connection. For the emulator's branch databases.
   */
  adminQuery(text: string, params?: unknown[], database?: string): Promise<Array<Record<string, unknown>>>;
  /** Closes the pool and listeners and stops an embedded server; idempotent. */
  stop(): Promise<void>;
}

interface Running {
  readonly info: BackendInfo;
  readonly pool: Pool;
  readonly listeners: PassThroughListener[];
  readonly hosts: LocalHosts;
  readonly supervisor: SupervisorHandle | null;
  /** Superuser connection settings for another database. */
  readonly connectTo: (database: string) => PoolConfig;
}

const SUPERUSER = "svc_superuser";

/** Creates the backend for `--postgres embedded|URL` without starting anything. */
export function createPostgresBackend(options: PostgresBackendOptions = {}): PostgresBackend {
  const log = options.log ?? (() => undefined);
  const external = options.postgres !== undefined && options.postgres !== "embedded" ? options.postgres : null;
  let starting: Promise<Running> | null = null;
  let running: Running | null = null;
  let stopped = false;

  const start = async (): Promise<Running> => {
    if (stopped) throw new PlatformError(ErrorCode.SERVER_ERROR, "the PostgreSQL backend was stopped; start the emulator again");
    starting ??= (external ? startExternal(external, options, log) : startEmbedded(options, log)).then(
      (value) => (running = value),
      (err: unknown) => {
        starting = null;
        throw err;
      },
    );
    return starting;
  };

  const urls = (run: Running, name: string, password: string): ConnectionUrls => ({
    direct: socketHostUrl(run.hosts.direct, name, password, name),
    pooled: socketHostUrl(run.hosts.pooled, name, password, name),
  });

  return {
    start: async () => (await start()).info,
    info: () => running?.info ?? null,
    createDatabase: async (spec) => {
      const run = await start();
      await sql.createRoleAndDatabase(run.pool, spec);
      return urls(run, spec.name, spec.password);
    },
    connectionUrls: (name, password) => {
      if (!running) throw new PlatformError(ErrorCode.SERVER_ERROR, "the PostgreSQL backend has not started");
      return urls(running, name, password);
    },
    dropDatabase: async (name) => sql.dropRoleAndDatabase((await start()).pool, name),
    databaseSize: async (name) => sql.databaseSize((await start()).pool, name),
    setReadOnly: async (name, readOnly) => sql.setDatabaseReadOnly((await start()).pool, name, readOnly),
    listDatabases: async (prefix) => sql.listDatabases((await start()).pool, prefix),
    adminQuery: async (text, params, database) => {
      const run = await start();
      if (database === undefined) return (await run.pool.query(text, params)).rows as Array<Record<string, unknown>>;
      const Pool = await loadPgPool();
      const pool = new Pool({ ...run.connectTo(database), max: 1 });
      pool.on("error", () => undefined);
      try {
        return (await pool.query(text, params)).rows as Array<Record<string, unknown>>;
      } finally {
        await pool.end().catch(() => undefined);
      }
    },
    stop: async () => {
      stopped = true;
      const run = running ?? (starting ? await starting.catch(() => null) : null);
      running = null;
      if (!run) return;
      await run.pool.end().catch(() => undefined);
      await Promise.all(run.listeners.map((l) => l.close()));
      await run.hosts.close();
      await run.supervisor?.stop();
    },
  };
}

async function startEmbedded(options: PostgresBackendOptions, log: (line: string) => void): Promise<Running> {
  const layout = await planClusterLayout(options.dataDir);
  let superPassword = layout.ephemeral ? null : await readSuperPassword(layout.root);
  if (superPassword === null) {
    superPassword = randomBytes(24).toString("base64url");
    if (!layout.ephemeral) await writeSuperPassword(layout.root, superPassword);
  }
  let supervisor: SupervisorHandle;
  try {
    supervisor = await startSupervisor(
      {
        clusterDir: layout.clusterDir,
        socketDir: layout.socketDir,
        superuser: SUPERUSER,
        superPassword,
        ephemeral: layout.ephemeral,
        removeOnStop: layout.removeOnStop,
      },
      { log, onExit: (reason) => log(`postgres stopped unexpectedly: ${reason}`) },
    );
  } catch (err) {
    const cause = err instanceof Error ? err.message : String(err);
    const fix = isRoot()
      ? `running as root: ${await firstUntraversable(layout.root)} must be readable and traversable by user postgres; or use --postgres URL`
      : "or use --postgres URL";
    throw new PlatformError(ErrorCode.SERVER_ERROR, `postgres could not start: ${cause} (${fix})`, { cause: err });
  }
  const listeners: PassThroughListener[] = [];
  let hosts: LocalHosts | null = null;
  try {
    const Pool = await loadPgPool();
    const password = superPassword;
    const connectTo = (database: string): PoolConfig => ({ host: layout.socketDir, port: 5432, user: SUPERUSER, password, database, allowExitOnIdle: true });
    const pool = new Pool({ ...connectTo("postgres"), max: 4 });
    pool.on("error", (err) => log(`postgres admin connection failed: ${err.message}`));
    const stored = layout.ephemeral ? null : await readStoredPorts(layout.root);
    const target = { path: layout.socketPath };
    listeners.push(await listenPassThrough({ port: options.pgPort || stored?.direct || 0, target, label: "--pg-port" }));
    listeners.push(await listenPassThrough({ port: options.poolerPort || stored?.pooled || 0, target, label: "--pooler-port" }));
    const [direct, pooled] = listeners as [PassThroughListener, PassThroughListener];
    if (!layout.ephemeral) await writeStoredPorts(layout.root, { direct: direct.port, pooled: pooled.port });
    hosts = await listenLocalHosts(layout.ephemeral ? null : layout.root, target);
    const version = await sql.serverVersion(pool);
    const info: BackendInfo = {
      kind: "embedded",
      majorVersion: version.major,
      walLevel: await sql.walLevel(pool),
      directPort: direct.port,
      pooledPort: pooled.port,
      directHost: "127.0.0.1",
      sslmode: "disable",
      hosts: { direct: hosts.direct, pooled: hosts.pooled },
    };
    return { info, pool, listeners, hosts, supervisor, connectTo };
  } catch (err) {
    await Promise.all(listeners.map((l) => l.close()));
    await hosts?.close();
    await supervisor.stop();
    throw err;
  }
}

async function startExternal(url: string, options: PostgresBackendOptions, log: (line: string) => void): Promise<Running> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, "--postgres must be \"embedded\" or a postgresql:// URL", { cause: err });
  }
  const Pool = await loadPgPool();
  const pool = new Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
  pool.on("error", (err) => log(`postgres admin connection failed: ${err.message}`));
  const host = parsed.hostname || "127.0.0.1";
  const port = Number(parsed.port || 5432);
  const listeners: PassThroughListener[] = [];
  let hosts: LocalHosts | null = null;
  try {
    const version = await sql.serverVersion(pool);
    if (version.major !== 17) log(`warning: the external PostgreSQL server runs version ${version.full}, not 17`);
    const level = await sql.walLevel(pool);
    listeners.push(await listenPassThrough({ port: options.poolerPort ?? 0, target: { host, port }, label: "--pooler-port" }));
    hosts = await listenLocalHosts(options.dataDir === undefined ? null : path.join(path.resolve(options.dataDir), "pg"), { host, port });
    const info: BackendInfo = {
      kind: "external",
      majorVersion: version.major,
      walLevel: level,
      directPort: port,
      pooledPort: listeners[0]?.port ?? 0,
      directHost: host,
      sslmode: parsed.searchParams.get("sslmode"),
      hosts: { direct: hosts.direct, pooled: hosts.pooled },
    };
    const connectTo = (database: string): PoolConfig => {
      const target = new URL(url);
      target.pathname = `/${encodeURIComponent(database)}`;
      return { connectionString: target.toString(), allowExitOnIdle: true };
    };
    return { info, pool, listeners, hosts, supervisor: null, connectTo };
  } catch (err) {
    await pool.end().catch(() => undefined);
    await Promise.all(listeners.map((l) => l.close()));
    await hosts?.close();
    throw new PlatformError(ErrorCode.SERVER_ERROR, `cannot use the PostgreSQL server at ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
