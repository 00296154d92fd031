/** The part of a `pg` pool the admin statements need. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** What to create for one claimable database. */
export interface DatabaseSpec {
  /** Name of both the login role and the database, e.g. `svc_claim_<32 hex>`. */
  readonly name: string;
  /** The role's password. */
  readonly password: string;
  /** Grant REPLICATION (logical slots and publications). */
  readonly replication: boolean;
  /** Comment on the database: the emulator instance id. */
  readonly comment: string;
}

/** A database this emulator may have created, as found on the server. */
export interface ServerDatabase {
  readonly name: string;
  readonly comment: string | null;
}

/** Quotes an identifier for SQL. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a string literal for SQL (standard_conforming_strings is on). */
export function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Creates the login role (no SUPERUSER, CREATEDB, CREATEROLE or BYPASSRLS; REPLICATION only when
 * asked), the database owned by it with PUBLIC's rights revoked, and the instance comment. On a
 * failure, whatever was created is dropped again.
 */
export async function createRoleAndDatabase(db: Queryable, spec: DatabaseSpec): Promise<void> {
  const id = quoteIdent(spec.name);
  const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS ${spec.replication ? "REPLICATION" : "NOREPLICATION"}`;
  await db.query(`CREATE ROLE ${id} ${attributes} PASSWORD ${quoteLiteral(spec.password)}`);
  try {
    await db.query(`CREATE DATABASE ${id} OWNER ${id}`);
    await db.query(`REVOKE ALL ON DATABASE ${id} FROM PUBLIC`);
    await db.query(`COMMENT ON DATABASE ${id} IS ${quoteLiteral(spec.comment)}`);
  } catch (err) {
    await dropRoleAndDatabase(db, spec.name).catch(() => undefined);
    throw err;
  }
}

/** Terminates the database's sessions, drops its replication slots, the database and the role. */
export async function dropRoleAndDatabase(db: Queryable, name: string): Promise<void> {
  await terminateSessions(db, name);
  await db.query(
    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1",
    [name],
  );
  await db.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  await db.query(`DROP ROLE IF EXISTS ${quoteIdent(name)}`);
}

/** Ends every session connected to the database. */
export async function terminateSessions(db: Queryable, name: string): Promise<void> {
  await db.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [name],
  );
}

/** `pg_database_size` of the database in bytes. */
export async function databaseSize(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query("SELECT pg_database_size($1)::text AS size", [name]);
  return Number(rows[0]?.["size"] ?? 0);
}

/**
 * Turns `default_transaction_read_only` on (and ends the sessions, so it takes effect) or
 * resets it.
 */
export async function setDatabaseReadOnly(db: Queryable, name: string, readOnly: boolean): Promise<void> {
  const id = quoteIdent(name);
  if (readOnly) {
    await db.query(`ALTER DATABASE ${id} SET default_transaction_read_only = on`);
    await terminateSessions(db, name);
  } else {
    await db.query(`ALTER DATABASE ${id} RESET default_transaction_read_only`);
  }
}

/** Databases whose name starts with `prefix`, with their comments. */
export async function listDatabases(db: Queryable, prefix: string): Promise<ServerDatabase[]> {
  const { rows } = await db.query(
    "SELECT datname, shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname",
    [prefix],
  );
  return rows.map((row) => ({
    name: String(row["datname"]),
    comment: typeof row["comment"] === "string" ? row["comment"] : null,
  }));
}

/** The server's version: major number and full string. */
export async function serverVersion(db: Queryable): Promise<{ major: number; full: string }> {
  const { rows } = await db.query("SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS full");
  const num = Number(rows[0]?.["num"] ?? 0);
  return { major: Math.floor(num / 10000), full: String(rows[0]?.["full"] ?? "") };
}

/** The server's `wal_level`. */
export async function walLevel(db: Queryable): Promise<string> {
  const { rows } = await db.query("SELECT current_setting('wal_level') AS level");
  return String(rows[0]?.["level"] ?? "");
}
