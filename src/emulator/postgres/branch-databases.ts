/**
 * Real PostgreSQL databases for the management API's branches (opt-in with
 * `realDatabases`): each (branch, database) is a physical database and each (branch, role) a login
 * role with the role's password. A child branch starts as a copy of its parent's databases
 * (`CREATE DATABASE … TEMPLATE`). Everything is created on demand, on the shared backend.
 */
import { createHash } from "node:crypto";
import type { PostgresBackend } from "./backend.js";
import { quoteIdent, quoteLiteral } from "./admin-sql.js";

/** What the module needs to know about a branch: its id, roles (with passwords) and databases. */
export interface BranchFacts {
  readonly id: string;
  readonly roles: ReadonlyMap<string, { readonly password: string }>;
  readonly databases: ReadonlyMap<string, { readonly ownerName: string }>;
}

/** The physical objects behind the management API's branches. */
export interface BranchDatabases {
  /** Ensures the role and database exist (the role with its current password) and returns the local URI. */
  connectionUri(branch: BranchFacts, roleName: string, databaseName: string, pooled: boolean): Promise<string>;
  /** Copies every physical database of `parent` that `child` also has; the child's roles own the copies. */
  copyBranch(parent: BranchFacts, child: BranchFacts): Promise<void>;
  /** Drops the branch's physical databases and roles (missing ones are fine). */
  dropBranch(branch: BranchFacts): Promise<void>;
  /** Drops every database and role this instance created (a graceful stop); starts nothing. */
  dropAll(): Promise<void>;
  /** A role created through the API: the login role with its password, allowed into the branch's databases. */
  createRole(branch: BranchFacts, roleName: string): Promise<void>;
  /** A new password through the API: set on the physical role if it exists. */
  updatePassword(branch: BranchFacts, roleName: string): Promise<void>;
  /**
   * A role deleted through the API (`branch` no longer lists it): in each of the branch's
   * databases its objects go to the database's owner and its grants are dropped, then the role.
   */
  dropRole(branch: BranchFacts, roleName: string): Promise<void>;
  /** A database created through the API: the physical database, owned by its owner's role. */
  createDatabase(branch: BranchFacts, databaseName: string): Promise<void>;
  /** A database renamed or given a new owner through the API (`branch` holds the new state). */
  updateDatabase(branch: BranchFacts, previousName: string, databaseName: string): Promise<void>;
  /** A database deleted through the API: the physical database is dropped, sessions and all. */
  dropDatabase(branch: BranchFacts, databaseName: string): Promise<void>;
}

const MAX_IDENT_BYTES = 63;
const TEMPLATE_RETRY_MS = 5_000;

/** `svc_<12 hex of SHA-256(branch id)>_<name>`, shortened with a hash suffix past 63 bytes. */
export function physicalName(branchId: string, name: string): string {
  const full = `svc_${createHash("sha256").update(branchId).digest("hex").slice(0, 12)}_${name}`;
  if (Buffer.byteLength(full) <= MAX_IDENT_BYTES) return full;
  const suffix = `_${createHash("sha256").update(full).digest("hex").slice(0, 8)}`;
  let head = full;
  while (Buffer.byteLength(head) + suffix.length > MAX_IDENT_BYTES) head = head.slice(0, -1);
  return head + suffix;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the branch-database manager on the shared PostgreSQL backend; one statement sequence at a time. */
export function createBranchDatabases(backend: PostgresBackend, log: (line: string) => void): BranchDatabases {
  let queue: Promise<unknown> = Promise.resolve();
  const createdDatabases = new Set<string>();
  const createdRoles = new Set<string>();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  const q = (text: string, params?: unknown[], database?: string): Promise<Array<Record<string, unknown>>> => backend.adminQuery(text, params, database);
  const roleExists = async (name: string): Promise<boolean> => (await q("SELECT 1 FROM pg_roles WHERE rolname = $1", [name])).length > 0;
  const databaseExists = async (name: string): Promise<boolean> => (await q("SELECT 1 FROM pg_database WHERE datname = $1", [name])).length > 0;

  const ensureRole = async (branch: BranchFacts, roleName: string): Promise<string> => {
    const role = branch.roles.get(roleName);
    const name = physicalName(branch.id, roleName);
    const password = quoteLiteral(role?.password ?? "");
    if (await roleExists(name)) await q(`ALTER ROLE ${quoteIdent(name)} LOGIN PASSWORD ${password}`);
    else await q(`CREATE ROLE ${quoteIdent(name)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${password}`);
    createdRoles.add(name);
    return name;
  };

  const restrict = async (branch: BranchFacts, database: string): Promise<void> => {
    await q(`REVOKE ALL ON DATABASE ${quoteIdent(database)} FROM PUBLIC`);
    for (const roleName of branch.roles.keys()) {
      const role = physicalName(branch.id, roleName);
      if (await roleExists(role)) await q(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(role)}`);
    }
  };

  const ensureDatabase = async (branch: BranchFacts, databaseName: string): Promise<string> => {
    const name = physicalName(branch.id, databaseName);
    if (await databaseExists(name)) return name;
    const owner = await ensureRole(branch, branch.databases.get(databaseName)?.ownerName ?? databaseName);
    await q(`CREATE DATABASE ${quoteIdent(name)} OWNER ${quoteIdent(owner)}`);
    createdDatabases.add(name);
    await restrict(branch, name);
    return name;
  };

  /** `CREATE DATABASE … TEMPLATE`: retried for 5 s while other sessions use the template, then they are terminated. */
  const createFromTemplate = async (name: string, template: string, owner: string): Promise<void> => {
    const statement = `CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)} OWNER ${quoteIdent(owner)}`;
    const deadline = Date.now() + TEMPLATE_RETRY_MS;
    for (;;) {
      try {
        await q(statement);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== "55006") throw err;
        if (Date.now() >= deadline) {
          log(`warning: terminating the sessions on ${template} to copy it into ${name} (they held it for ${TEMPLATE_RETRY_MS / 1000} s)`);
          await q("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [template]);
          await q(statement);
          return;
        }
        await sleep(100);
      }
    }
  };

  /** Moves ownership inside the copy from the parent's roles to the child's, keeping the parent's databases with their owners. */
  const reassign = async (parent: BranchFacts, child: BranchFacts, database: string): Promise<void> => {
    for (const roleName of parent.roles.keys()) {
      const from = physicalName(parent.id, roleName);
      if (!(await roleExists(from))) continue;
      const to = await ensureRole(child, roleName);
      const owned = (await q("SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = $1)", [from])).map((r) => String(r["datname"]));
      await q(`REASSIGN OWNED BY ${quoteIdent(from)} TO ${quoteIdent(to)}`, undefined, database);
      for (const name of owned) await q(`ALTER DATABASE ${quoteIdent(name)} OWNER TO ${quoteIdent(from)}`);
    }
  };

  const ownerOf = async (database: string): Promise<string | undefined> =>
    (await q("SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1", [database]))[0]?.["owner"] as string | undefined;

  const dropDatabase = async (name: string): Promise<void> => {
    await q(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    createdDatabases.delete(name);
  };

  const dropRole = (name: string): Promise<unknown> =>
    q(`DROP ROLE IF EXISTS ${quoteIdent(name)}`).catch((err: unknown) => {
      log(`warning: could not drop role ${name}: ${err instanceof Error ? err.message : String(err)}`);
    });

  return {
    connectionUri: (branch, roleName, databaseName, pooled) =>
      serial(async () => {
        const role = await ensureRole(branch, roleName);
        const database = await ensureDatabase(branch, databaseName);
        await q(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(role)}`);
        const info = backend.info();
        if (info === null) throw new Error("the PostgreSQL backend is not running");
        const where = pooled ? `127.0.0.1:${info.pooledPort}` : `${info.directHost}:${info.directPort}`;
        const password = branch.roles.get(roleName)?.password ?? "";
        return `postgresql://${encodeURIComponent(role)}:${encodeURIComponent(password)}@${where}/${encodeURIComponent(database)}${info.sslmode === null ? "" : `?sslmode=${info.sslmode}`}`;
      }),
    copyBranch: (parent, child) =>
      serial(async () => {
        for (const [databaseName, database] of child.databases) {
          const template = physicalName(parent.id, databaseName);
          if (!parent.databases.has(databaseName) || !(await databaseExists(template))) continue;
          const name = physicalName(child.id, databaseName);
          if (await databaseExists(name)) continue;
          const owner = await ensureRole(child, database.ownerName);
          await createFromTemplate(name, template, owner);
          createdDatabases.add(name);
          await reassign(parent, child, name);
          await restrict(child, name);
        }
      }),
    dropBranch: (branch) =>
      serial(async () => {
        for (const databaseName of branch.databases.keys()) await dropDatabase(physicalName(branch.id, databaseName));
        for (const roleName of branch.roles.keys()) {
          const name = physicalName(branch.id, roleName);
          await dropRole(name);
          createdRoles.delete(name);
        }
      }),
    createRole: (branch, roleName) =>
      serial(async () => {
        const role = await ensureRole(branch, roleName);
        for (const databaseName of branch.databases.keys()) {
          const database = physicalName(branch.id, databaseName);
          if (await databaseExists(database)) await q(`GRANT CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(role)}`);
        }
      }),
    updatePassword: (branch, roleName) =>
      serial(async () => {
        if (await roleExists(physicalName(branch.id, roleName))) await ensureRole(branch, roleName);
      }),
    dropRole: (branch, roleName) =>
      serial(async () => {
        const role = physicalName(branch.id, roleName);
        if (!(await roleExists(role))) return;
        for (const databaseName of branch.databases.keys()) {
          const database = physicalName(branch.id, databaseName);
          const owner = await ownerOf(database);
          if (owner === undefined) continue;
          await q(`REASSIGN OWNED BY ${quoteIdent(role)} TO ${quoteIdent(owner)}`, undefined, database);
          await q(`DROP OWNED BY ${quoteIdent(role)}`, undefined, database);
        }
        await q(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
        createdRoles.delete(role);
      }),
    createDatabase: (branch, databaseName) =>
      serial(async () => {
        await ensureDatabase(branch, databaseName);
      }),
    updateDatabase: (branch, previousName, databaseName) =>
      serial(async () => {
        const before = physicalName(branch.id, previousName);
        const name = physicalName(branch.id, databaseName);
        if (!(await databaseExists(before))) return;
        if (before !== name) {
          await q("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [before]);
          await q(`ALTER DATABASE ${quoteIdent(before)} RENAME TO ${quoteIdent(name)}`);
          createdDatabases.delete(before);
          createdDatabases.add(name);
        }
        const ownerName = branch.databases.get(databaseName)?.ownerName;
        if (ownerName !== undefined) await q(`ALTER DATABASE ${quoteIdent(name)} OWNER TO ${quoteIdent(await ensureRole(branch, ownerName))}`);
      }),
    dropDatabase: (branch, databaseName) => serial(() => dropDatabase(physicalName(branch.id, databaseName))),
    dropAll: () =>
      serial(async () => {
        for (const name of createdDatabases) {
          await q(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch((err: unknown) => {
            log(`warning: could not drop database ${name}: ${err instanceof Error ? err.message : String(err)}`);
          });
        }
        for (const name of createdRoles) await dropRole(name);
        createdDatabases.clear();
        createdRoles.clear();
      }),
  };
}
