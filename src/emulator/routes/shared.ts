/** Helpers shared by the route modules: connection URIs, cursor paging and compute checks. */
import type { ConnectionUriEntry } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { socketHostUrl } from "../postgres/local-hosts.js";
import type { EndpointRec, ProjectRec, RoleRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { badRequest } from "../http/errors.js";

/** `postgresql://role:password@host/db?sslmode=require`; hosts end in `.emulator.invalid` and point at nothing, except for a claimed claimable project (its local hosts). */
export function connectionUri(world: World, project: ProjectRec, endpoint: EndpointRec, role: RoleRec, database: string, pooled: boolean): string {
  const local = project.localPostgres;
  if (local?.hosts !== undefined) return socketHostUrl(pooled ? local.hosts.pooled : local.hosts.direct, role.name, role.password, database);
  if (local !== undefined) {
    const where = pooled ? `127.0.0.1:${local.pooledPort}` : `${local.directHost}:${local.directPort}`;
    return `postgresql://${encodeURIComponent(role.name)}:${encodeURIComponent(role.password)}@${where}/${encodeURIComponent(database)}${local.sslmode === null ? "" : `?sslmode=${local.sslmode}`}`;
  }
  const host = `${endpoint.id}${pooled ? "-pooler" : ""}.${world.proxyHost(project.regionId)}`;
  return `postgresql://${encodeURIComponent(role.name)}:${encodeURIComponent(role.password)}@${host}/${encodeURIComponent(database)}?sslmode=require`;
}

/** One `connection_uris` entry of a create response. */
export function connectionUriEntry(world: World, project: ProjectRec, endpoint: EndpointRec, role: RoleRec, database: string, hosts: { host: string; pooler_host: string }): ConnectionUriEntry {
  return {
    connection_uri: connectionUri(world, project, endpoint, role, database, false),
    connection_parameters: { database, password: role.password, role: role.name, host: hosts.host, pooler_host: hosts.pooler_host },
  };
}

/** Cursor-flavour key of an item: `<created_at>~<id>` (timestamp-like, opaque). */
export function cursorKey(createdAt: number, id: string): string {
  return `${isoTime(createdAt)}~${id}`;
}

/**
 * One newest-first page of a cursor-flavour list. Items are sorted by
 * `(createdAt, id)` descending; the cursor is the key of the last item; an empty page echoes
 * the request's cursor.
 */
export function cursorPage<T>(items: T[], key: (item: T) => { createdAt: number; id: string }, cursor: string | undefined, limit: number): { page: T[]; cursor: string | undefined } {
  const sorted = [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return kb.createdAt - ka.createdAt || (kb.id < ka.id ? -1 : kb.id > ka.id ? 1 : 0);
  });
  let start = 0;
  if (cursor !== undefined && cursor !== "") {
    const sep = cursor.lastIndexOf("~");
    const at = Date.parse(cursor.slice(0, sep));
    const id = cursor.slice(sep + 1);
    if (sep < 0 || Number.isNaN(at)) throw badRequest(`cursor "${cursor.slice(0, 80)}" is not a cursor this list returned; pass pagination.cursor unchanged`);
    start = sorted.findIndex((item) => {
      const k = key(item);
      return k.createdAt < at || (k.createdAt === at && k.id < id);
    });
    if (start < 0) start = sorted.length;
  }
  const page = sorted.slice(start, start + limit);
  const last = page.at(-1);
  return { page, cursor: last !== undefined ? cursorKey(key(last).createdAt, key(last).id) : cursor };
}

/** Next-flavour paging: `next` = base64url of the position and sort parameters. */
export function nextPage<T>(sorted: T[], cursor: string | undefined, limit: number, sort: string): { page: T[]; next: string | undefined } {
  let start = 0;
  if (cursor !== undefined && cursor !== "") {
    let decoded: { o?: unknown; s?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown; s?: unknown };
    } catch {
      throw badRequest(`cursor "${cursor.slice(0, 80)}" is not a cursor this list returned; pass pagination.next unchanged`);
    }
    if (typeof decoded.o !== "number" || decoded.s !== sort) {
      throw badRequest("the cursor was issued for different sort parameters; repeat the first request's sort_by and sort_order");
    }
    start = decoded.o;
  }
  const page = sorted.slice(start, start + limit);
  const end = start + page.length;
  return { page, next: end < sorted.length ? Buffer.from(JSON.stringify({ o: end, s: sort })).toString("base64url") : undefined };
}
