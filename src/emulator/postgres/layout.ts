import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SOCKET_FILE } from "./supervisor-protocol.js";

/** Where an embedded cluster lives and what is removed when it stops. */
export interface ClusterLayout {
  /** `DATA_DIR/pg`, or a fresh directory under `<tmpdir>/svc-config-pg-clusters/`. */
  readonly root: string;
  /** The PostgreSQL data directory. */
  readonly clusterDir: string;
  /** Directory holding the Unix socket. */
  readonly socketDir: string;
  /** Full path of the socket file. */
  readonly socketPath: string;
  /** A throw-away cluster (no data dir). */
  readonly ephemeral: boolean;
  /** Removed after the server stopped. */
  readonly removeOnStop: readonly string[];
}

/** Longest socket path we use; `sun_path` holds 108 bytes including the terminator. */
const MAX_SOCKET_PATH = 100;

/**
 * Plans the cluster directories: `DATA_DIR/pg/cluster` with a data dir, else a new
 * 0755 directory under `<tmpdir>/svc-config-pg-clusters/` that is removed at stop. Parents are
 * created 0755 so the unprivileged server user can traverse them (never a 0700 mkdtemp dir).
 */
export async function planClusterLayout(dataDir: string | undefined): Promise<ClusterLayout> {
  const ephemeral = dataDir === undefined;
  const root = ephemeral
    ? path.join(tmpdir(), "svc-config-pg-clusters", randomBytes(6).toString("hex"))
    : path.join(path.resolve(dataDir), "pg");
  await mkdir(root, { recursive: true, mode: 0o755 });
  await chmod(root, 0o755);
  const clusterDir = path.join(root, "cluster");
  const removeOnStop = ephemeral ? [root] : [];
  let socketDir = clusterDir;
  if (path.join(socketDir, SOCKET_FILE).length > MAX_SOCKET_PATH) {
    socketDir = path.join(tmpdir(), `svc-pg-${createHash("sha256").update(clusterDir).digest("hex").slice(0, 12)}`);
    removeOnStop.push(socketDir);
  }
  return { root, clusterDir, socketDir, socketPath: path.join(socketDir, SOCKET_FILE), ephemeral, removeOnStop };
}

/** Ports chosen at the first start, kept in `DATA_DIR/pg/ports.json` because `.env` files hold them. */
export interface StoredPorts {
  readonly direct: number;
  readonly pooled: number;
}

/** Reads `ports.json`; null when absent or malformed. */
export async function readStoredPorts(root: string): Promise<StoredPorts | null> {
  const value = await readJson(path.join(root, "ports.json"));
  if (typeof value !== "object" || value === null) return null;
  const { direct, pooled } = value as { direct?: unknown; pooled?: unknown };
  return isPort(direct) && isPort(pooled) ? { direct, pooled } : null;
}

/** Writes `ports.json` atomically. */
export async function writeStoredPorts(root: string, ports: StoredPorts): Promise<void> {
  await writeJsonAtomic(path.join(root, "ports.json"), ports, 0o644);
}

/** Reads the stored superuser password of a persistent cluster, or null. */
export async function readSuperPassword(root: string): Promise<string | null> {
  const value = await readJson(path.join(root, "superuser.json"));
  const password = typeof value === "object" && value !== null ? (value as { password?: unknown }).password : undefined;
  return typeof password === "string" && password.length > 0 ? password : null;
}

/** Stores the superuser password of a persistent cluster (mode 0600). */
export async function writeSuperPassword(root: string, password: string): Promise<void> {
  await writeJsonAtomic(path.join(root, "superuser.json"), { password }, 0o600);
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown;
  } catch {
    return null;
  }
}

async function writeJsonAtomic(file: string, value: unknown, mode: number): Promise<void> {
  const temp = `${file}.tmp-${randomBytes(4).toString("hex")}`;
  await writeFile(temp, `${JSON.stringify(value)}\n`, { mode });
  await rename(temp, file);
}

function isPort(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value < 65536;
}

/**
 * The outermost directory on the way to `target` that other users cannot traverse (no `o+x`),
 * or `target` itself when every ancestor is traversable: the path to name when the server's
 * unprivileged user cannot reach the cluster.
 */
export async function firstUntraversable(target: string): Promise<string> {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const part of parts) {
    current = path.join(current, part);
    try {
      if (((await stat(current)).mode & 0o001) === 0) return current;
    } catch {
      return current;
    }
  }
  return target;
}
