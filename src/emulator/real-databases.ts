/**
 * `realDatabases`: wraps the emulator's request handler so that, once a
 * management request has succeeded, branch creation copies the parent's databases, branch deletion
 * drops the branch's, role and database changes are mirrored (`postgres/role-database-requests.ts`),
 * connection URIs point at real local databases, and endpoint hosts are connectable
 * (`postgres/endpoint-hosts.ts`). Off by default; the PostgreSQL backend starts only when one of
 * these requests, or a connection to an endpoint host, needs it.
 */
import path from "node:path";
import { EMPTY_SCHEMA } from "./engine/schema-diff.js";
import { createBranchDatabases, physicalName, type BranchDatabases, type BranchFacts } from "./postgres/branch-databases.js";
import { readSchema } from "./postgres/schema-read.js";
import type { EndpointHostSource, SchemaSource } from "./runtime.js";
import type { PostgresBackend } from "./postgres/backend.js";
import { createEndpointHosts, type EndpointHosts, type StartupRoute } from "./postgres/endpoint-hosts.js";
import { roleDatabaseRequestOf } from "./postgres/role-database-requests.js";
import { databaseFacts, followRestore, isRestoreRequest } from "./real-restore.js";
import { platformEndpointHosts } from "./http/views.js";
import type { BranchRec, ProjectRec } from "./store/records.js";
import type { World } from "./store/world.js";

type Json = Record<string, unknown>;

const CONNECTION_URI = /^\/api\/v2\/projects\/([^/]+)\/connection_uri$/;
const BRANCHES = /^\/api\/v2\/projects\/([^/]+)\/branches$/;
const BRANCH = /^\/api\/v2\/projects\/([^/]+)\/branches\/([^/]+)$/;
const PROJECTS = /^\/api\/v2\/projects$/;

function facts(branch: BranchRec): BranchFacts {
  return databaseFacts(branch.id, branch);
}

function withJson(response: Response, body: Json): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
}

async function rewriteUris(real: BranchDatabases, branch: BranchRec | undefined, body: Json): Promise<boolean> {
  const uris = body["connection_uris"];
  if (branch === undefined || !Array.isArray(uris)) return false;
  for (const entry of uris as Json[]) {
    const params = (entry["connection_parameters"] ?? {}) as Json;
    if (typeof params["role"] !== "string" || typeof params["database"] !== "string") continue;
    entry["connection_uri"] = await real.connectionUri(facts(branch), params["role"], params["database"], false);
  }
  return true;
}

/** Handles one request: `inner` is the emulator's own handler. */
async function handle(real: BranchDatabases, world: () => World, request: Request, inner: () => Promise<Response>): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method;
  const localProject = (id: string | undefined): ProjectRec | undefined => {
    const project = id === undefined ? undefined : world().projects.get(decodeURIComponent(id));
    return project?.localPostgres === undefined ? project : undefined;
  };
  if (isRestoreRequest(method, url.pathname)) return followRestore(real, localProject, request, inner);
  const roleOrDatabase = roleDatabaseRequestOf(method, url.pathname);
  if (roleOrDatabase !== undefined) {
    const response = await inner();
    const branch = localProject(roleOrDatabase.projectId)?.branches.get(roleOrDatabase.branchId);
    if (!response.ok || branch === undefined) return response;
    try {
      await roleOrDatabase.mirror(real, facts(branch), (await response.clone().json()) as Json);
    } catch (err) {
      const message = `the change was recorded, but the real PostgreSQL refused it: ${err instanceof Error ? err.message : String(err)}`;
      return Response.json({ code: "real_database_failed", message }, { status: 500 });
    }
    return response;
  }
  if (method === "DELETE") {
    const [, projectId, branchId] = BRANCH.exec(url.pathname) ?? [];
    const before = branchId === undefined ? undefined : localProject(projectId)?.branches.get(decodeURIComponent(branchId));
    const doomed = before === undefined ? undefined : facts(before);
    const response = await inner();
    if (doomed !== undefined && response.ok) await real.dropBranch(doomed);
    return response;
  }
  const response = await inner();
  if (!response.ok) return response;
  if (method === "GET") {
    const project = localProject(CONNECTION_URI.exec(url.pathname)?.[1]);
    if (project === undefined) return response;
    const q = url.searchParams;
    const branch = q.has("branch_id") ? project.branches.get(q.get("branch_id") ?? "") : world().defaultBranch(project);
    const role = q.get("role_name");
    const database = q.get("database_name");
    if (branch === undefined || role === null || database === null) return response;
    return withJson(response, { uri: await real.connectionUri(facts(branch), role, database, q.get("pooled") === "true") });
  }
  if (method !== "POST") return response;
  const branchesMatch = BRANCHES.exec(url.pathname);
  if (branchesMatch === null && !PROJECTS.test(url.pathname)) return response;
  const body = (await response.clone().json()) as Json;
  if (branchesMatch !== null) {
    const project = localProject(branchesMatch[1]);
    const created = project?.branches.get(String((body["branch"] as Json | undefined)?.["id"] ?? ""));
    const parent = created?.parentId === undefined ? undefined : project?.branches.get(created.parentId);
    if (created === undefined) return response;
    if (parent !== undefined) await real.copyBranch(facts(parent), facts(created));
    return (await rewriteUris(real, created, body)) ? withJson(response, body) : response;
  }
  const project = localProject(String((body["project"] as Json | undefined)?.["id"] ?? ""));
  const branch = project === undefined ? undefined : world().defaultBranch(project);
  return (await rewriteUris(real, branch, body)) ? withJson(response, body) : response;
}

/** Anything with a fetch handler, like a Hono app. */
export interface FetchHandler {
  fetch(request: Request, ...rest: unknown[]): Response | Promise<Response>;
}

/** The clean-up side of {@link useRealDatabases}. */
export interface RealDatabases {
  /** Drops every database and role this process created (a graceful stop without a data dir). */
  dropAll(): Promise<void>;
  /** Drops the physical databases and roles of every branch of these projects (purge, reset). */
  dropProjects(projects: Iterable<ProjectRec>): Promise<void>;
  /** The schema of a branch database, read from its catalog (empty until the database exists). */
  readSchema: SchemaSource;
  /** Connectable hosts of the endpoints of branches with real databases. */
  endpointHosts: EndpointHostSource;
  /** A connection URI of a branch role and database on the real server (both created when missing). */
  connectionUri(branch: BranchRec, role: string, database: string, pooled: boolean): Promise<string>;
  /** Stops listening on the endpoint hosts (a stop, with or without a data dir). */
  close(): Promise<void>;
}

/**
 * Routes a connection made to an endpoint host: the endpoint's current branch must hold the role
 * and the database the client names (as the platform's proxy refuses them otherwise); their
 * physical role and database are made ready (`connectionUri` creates them on first use).
 */
async function routeStartup(real: BranchDatabases, backend: PostgresBackend, world: World, endpointId: string, user: string, database: string): Promise<StartupRoute> {
  const project = [...world.projects.values()].find((p) => p.endpoints.has(endpointId) && p.localPostgres === undefined && p.deletedAt === undefined);
  const branch = project?.branches.get(project.endpoints.get(endpointId)?.branchId ?? "");
  if (branch === undefined) return { sqlstate: "08006", message: `endpoint ${endpointId} does not exist (was it deleted?)` };
  if (!branch.roles.has(user)) return { sqlstate: "28000", message: `role "${user}" does not exist on branch ${branch.id}` };
  if (!branch.databases.has(database)) return { sqlstate: "3D000", message: `database "${database}" does not exist on branch ${branch.id}` };
  await real.connectionUri(facts(branch), user, database, false);
  return { target: await serverSocket(backend), user: physicalName(branch.id, user), database: physicalName(branch.id, database) };
}

/** The server's local socket (started if it is not running yet). */
async function serverSocket(backend: PostgresBackend): Promise<{ path: string }> {
  const info = backend.info() ?? (await backend.start());
  return { path: path.join(info.hosts.direct, ".s.PGSQL.5432") };
}

/**
 * Replaces `app.fetch` with one that gives the management API's branches real databases on
 * `backend`. Call it after every route is mounted and before serving; call
 * `dropAll` on a graceful stop, before the backend stops.
 */
export function useRealDatabases(app: FetchHandler, world: () => World, backend: PostgresBackend, options: { log: (line: string) => void; dataDir?: string }): RealDatabases {
  const { log } = options;
  const real = createBranchDatabases(backend, log);
  const hosts: EndpointHosts = createEndpointHosts({
    stableKey: options.dataDir === undefined ? null : path.resolve(options.dataDir),
    route: (endpointId, user, database) => routeStartup(real, backend, world(), endpointId, user, database),
    server: () => serverSocket(backend),
    log,
  });
  const inner = app.fetch;
  app.fetch = async (request: Request, ...rest: unknown[]) => {
    const response = await handle(real, world, request, async () => inner(request, ...rest));
    // An endpoint host in the response listens before the client can use it.
    await hosts.ready();
    return response;
  };
  return {
    endpointHosts(project, endpoint) {
      if (project.localPostgres !== undefined) return platformEndpointHosts(world(), project, endpoint);
      const names = hosts.hostsOf(endpoint.id);
      return { host: names.host, pooler_host: names.poolerHost };
    },
    close: () => hosts.close(),
    async readSchema(project, branch, database) {
      if (project.localPostgres !== undefined) return EMPTY_SCHEMA;
      const physical = physicalName(branch.id, database);
      const exists = await backend.adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [physical]);
      if (exists.length === 0) return EMPTY_SCHEMA;
      // Owners are named as the branch names its roles, so a parent and its child dump alike.
      const roles = new Map([...branch.roles.keys()].map((role) => [physicalName(branch.id, role), role]));
      return readSchema((text) => backend.adminQuery(text, [], physical), (owner) => roles.get(owner) ?? owner);
    },
    dropAll: () => real.dropAll(),
    connectionUri: (branch, role, database, pooled) => real.connectionUri(facts(branch), role, database, pooled),
    async dropProjects(projects) {
      // A claimed claimable project's database belongs to the claimable feature, not to a branch.
      for (const project of projects) {
        if (project.localPostgres !== undefined) continue;
        for (const branch of project.branches.values()) await real.dropBranch(facts(branch));
        for (const snapshot of project.snapshots.values()) await real.dropBranch(databaseFacts(snapshot.id, snapshot.content));
      }
    },
  };
}
