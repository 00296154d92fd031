/**
 * Reads a real database's schema from its catalog (the embedded server ships no `pg_dump`):
 * user tables and their columns, constraints, indexes that back no constraint, and views, with
 * the ownership and comment statements pg_dump writes after each table and view.
 */
import { quoteName, relationKey, type DatabaseSchema, type SchemaTable } from "../engine/schema-diff.js";

/** Runs one catalog query on the database being read. */
export type CatalogQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

const USER_NAMESPACES = "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'";

const COLUMNS = `
SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
       a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default_expr
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE c.relkind IN ('r', 'p') AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname, a.attnum`;

const CONSTRAINTS = `
SELECT format('ALTER TABLE ONLY %I.%I ADD CONSTRAINT %I %s', n.nspname, c.relname, con.conname, pg_get_constraintdef(con.oid)) AS ddl
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE con.contype IN ('p', 'u', 'f', 'c', 'x') AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname, con.conname`;

const INDEXES = `
SELECT pg_get_indexdef(i.indexrelid) AS ddl
FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid) AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname`;

const VIEWS = `
SELECT format('CREATE VIEW %I.%I AS %s', n.nspname, c.relname, rtrim(pg_get_viewdef(c.oid, true), ';')) AS ddl
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'v' AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname`;

const OWNERS = `
SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, pg_get_userbyid(c.relowner) AS owner
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v') AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname`;

const COMMENTS = `
SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, a.attname AS column, d.description
FROM pg_description d
JOIN pg_class c ON c.oid = d.objoid AND d.classoid = 'pg_class'::regclass
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.objsubid AND d.objsubid > 0
WHERE c.relkind IN ('r', 'p', 'v') AND ${USER_NAMESPACES}
ORDER BY n.nspname, c.relname, d.objsubid`;

/** A string literal as pg_dump writes it (standard strings: quotes doubled, line breaks kept). */
function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** How the dump names the owner of a relation: a role's name on the branch, from its physical name. */
export type OwnerName = (physical: string) => string;

/** The ownership and comment statements of each table and view, by {@link relationKey}. */
async function readNotes(query: CatalogQuery, ownerName: OwnerName): Promise<Map<string, string[]>> {
  const notes = new Map<string, string[]>();
  const add = (row: Record<string, unknown>, statement: string): void => {
    const key = relationKey(String(row["schema"]), String(row["name"]));
    notes.set(key, [...(notes.get(key) ?? []), statement]);
  };
  const relation = (row: Record<string, unknown>): string => `${quoteName(String(row["schema"]))}.${quoteName(String(row["name"]))}`;
  const kind = (row: Record<string, unknown>): string => (row["kind"] === "v" ? "VIEW" : "TABLE");
  for (const row of await query(OWNERS)) add(row, `ALTER ${kind(row)} ${relation(row)} OWNER TO ${quoteName(ownerName(String(row["owner"])))}`);
  for (const row of await query(COMMENTS)) {
    const column = row["column"];
    const target = typeof column === "string" ? `COLUMN ${relation(row)}.${quoteName(column)}` : `${kind(row)} ${relation(row)}`;
    add(row, `COMMENT ON ${target} IS ${quoteLiteral(String(row["description"]))}`);
  }
  return notes;
}

/** The schema of the database `query` runs on, each relation's owner named by `ownerName`. */
export async function readSchema(query: CatalogQuery, ownerName: OwnerName): Promise<DatabaseSchema> {
  const tables: SchemaTable[] = [];
  for (const row of await query(COLUMNS)) {
    const schema = String(row["schema"]);
    const name = String(row["table"]);
    let table = tables.at(-1);
    if (table === undefined || table.schema !== schema || table.name !== name) {
      table = { schema, name, columns: [] };
      tables.push(table);
    }
    const defaultExpr = row["default_expr"];
    table.columns.push({
      name: String(row["column"]),
      type: String(row["type"]),
      nullable: row["not_null"] !== true,
      ...(typeof defaultExpr === "string" ? { default: defaultExpr } : {}),
    });
  }
  const statements: string[] = [];
  for (const text of [CONSTRAINTS, INDEXES, VIEWS]) for (const row of await query(text)) statements.push(String(row["ddl"]));
  return { tables, statements, notes: await readNotes(query, ownerName) };
}
