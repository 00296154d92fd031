/**
 * The local host names of claimable connection strings. Hosted, the pooled host contains
 * `-pooler` and removing it gives the direct host; tools also derive the pooled host by
 * adding `-pooler` to the first label of the direct one. Names that resolve to 127.0.0.1 need
 * DNS or root (`*.localhost` does not resolve on a stock Debian, nor in Node's resolver), so the
 * hosts are two Unix-socket directories whose first labels differ by `-pooler`:
 * `/tmp/svc-hosts-<id>/ep-emulator.pg` (direct) and `…/ep-emulator-pooler.pg` (pooled). libpq
 * (`psql`) and `pg` read a host starting with `/` as a socket directory (written `%2F…` in a URL)
 * and connect to `.s.PGSQL.5432` inside it, with no DNS, no root and no port in the URL.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listenPassThroughSocket, type PassThroughListener, type PassThroughTarget } from "./tcp-proxy.js";

/** First label of the direct host directory; the pooled one adds `-pooler`. */
const DIRECT_LABEL = "ep-emulator";
/** The rest of both directory names: the first dot of the host is here, never earlier in the path. */
const HOST_SUFFIX = ".pg";
/** The socket file libpq and `pg` look for in a host directory when the URL gives no port. */
const SOCKET_FILE = ".s.PGSQL.5432";

/** The two listening host directories. */
export interface LocalHosts {
  /** Direct host: a socket directory path. */
  readonly direct: string;
  /** Pooled host: the direct one with `-pooler` after its first label. */
  readonly pooled: string;
  /** Stops both listeners and removes the directories; idempotent. */
  close(): Promise<void>;
}

/**
 * Where the host directories live: under the temporary directory when its path has no dot (the
 * first dot must be the one in the host directory's name), else under `/tmp`. `stableKey` (the
 * data dir's cluster root) keeps the path across restarts, since `.env` files hold it.
 */
export function planLocalHosts(stableKey: string | null): { base: string; direct: string; pooled: string } {
  const parent = tmpdir().includes(".") ? "/tmp" : tmpdir();
  const id = stableKey === null ? randomBytes(6).toString("hex") : createHash("sha256").update(stableKey).digest("hex").slice(0, 12);
  const base = path.join(parent, `svc-hosts-${id}`);
  return { base, direct: path.join(base, `${DIRECT_LABEL}${HOST_SUFFIX}`), pooled: path.join(base, `${DIRECT_LABEL}-pooler${HOST_SUFFIX}`) };
}

/** Listens on both host directories (0700: only this user connects), forwarding to `target`. */
export async function listenLocalHosts(stableKey: string | null, target: PassThroughTarget): Promise<LocalHosts> {
  const plan = planLocalHosts(stableKey);
  const listeners: PassThroughListener[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(listeners.map((l) => l.close()));
    await rm(plan.base, { recursive: true, force: true });
  };
  try {
    for (const dir of [plan.direct, plan.pooled]) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      listeners.push(await listenPassThroughSocket(path.join(dir, SOCKET_FILE), target));
    }
  } catch (err) {
    await close();
    throw err;
  }
  let closed: Promise<void> | null = null;
  return { direct: plan.direct, pooled: plan.pooled, close: () => (closed ??= close()) };
}

/** A connection URL whose host is a socket directory (percent-encoded, no port). */
export function socketHostUrl(hostDir: string, user: string, password: string, database: string): string {
  return `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${encodeURIComponent(hostDir)}/${encodeURIComponent(database)}?sslmode=disable`;
}
