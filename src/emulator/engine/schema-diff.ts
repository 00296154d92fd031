/**
 * Schemas of branch databases as the schema routes return them, and the unified diff behind
 * `compare_schema`. Pure: the real database's catalog rows come in, text goes out.
 */

/** A column of a table. */
export interface SchemaColumn {
  name: string;
  type: string;
  nullable: boolean;
  default?: string;
}

/** A table (or partitioned table) with its columns in order. */
export interface SchemaTable {
  schema: string;
  name: string;
  columns: SchemaColumn[];
}

/** A database schema: tables, plus the DDL of constraints, indexes and views (one statement each). */
export interface DatabaseSchema {
  tables: SchemaTable[];
  /** Further DDL statements, in a stable order, without the final `;`. */
  statements: string[];
  /**
   * Ownership and comment statements (`ALTER TABLE … OWNER TO …`, `COMMENT ON …`, without the
   * final `;`) by the relation they are about ({@link relationKey}), each written right after that
   * table's DDL as pg_dump places them (a view's after the other statements); absent: none.
   */
  notes?: ReadonlyMap<string, readonly string[]>;
}

/** The schema of a database that has none (no tables): what a record-only branch reports. */
export const EMPTY_SCHEMA: Readonly<DatabaseSchema> = Object.freeze({ tables: [], statements: [] });

/** A name as SQL writes it: bare when it can be, else double-quoted. */
export function quoteName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** The key of a relation's {@link DatabaseSchema.notes}: its schema and name, unambiguous whatever dots they hold. */
export function relationKey(schema: string, name: string): string {
  return JSON.stringify([schema, name]);
}

/** The schema as SQL DDL text (`""` for an empty schema), one statement per paragraph. */
export function schemaSql(schema: DatabaseSchema): string {
  const parts: string[] = [];
  const notes = new Map(schema.notes ?? []);
  const schemas = [...new Set(schema.tables.map((t) => t.schema))].filter((s) => s !== "public").sort();
  for (const name of schemas) parts.push(`CREATE SCHEMA ${quoteName(name)};`);
  for (const table of schema.tables) {
    const columns = table.columns.map((c) => `    ${quoteName(c.name)} ${c.type}${c.default !== undefined ? ` DEFAULT ${c.default}` : ""}${c.nullable ? "" : " NOT NULL"}`);
    parts.push(`CREATE TABLE ${quoteName(table.schema)}.${quoteName(table.name)} (\n${columns.join(",\n")}\n);`);
    const key = relationKey(table.schema, table.name);
    for (const note of notes.get(key) ?? []) parts.push(`${note};`);
    notes.delete(key);
  }
  for (const statement of [...schema.statements, ...[...notes.values()].flat()]) parts.push(`${statement};`);
  return parts.length === 0 ? "" : `${parts.join("\n\n")}\n`;
}

/** Longest common subsequence lengths of two line lists, from each pair of suffixes. */
interface LcsTable {
  at(i: number, j: number): number;
}

function lcsTable(a: readonly string[], b: readonly string[]): LcsTable {
  const width = b.length + 1;
  const cells = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => cells[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      cells[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  return { at };
}

/**
 * A unified diff from `base` to `changed` (`""` when they are equal): one hunk holding every line,
 * `-` for lines only in the base, `+` for lines only in the changed text, a space for both.
 */
export function unifiedDiff(base: string, changed: string, labels: { base: string; changed: string }): string {
  if (base === changed) return "";
  const a = base === "" ? [] : base.replace(/\n$/, "").split("\n");
  const b = changed === "" ? [] : changed.replace(/\n$/, "").split("\n");
  const table = lcsTable(a, b);
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(` ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || table.at(i + 1, j) >= table.at(i, j + 1))) {
      lines.push(`-${a[i]}`);
      i++;
    } else {
      lines.push(`+${b[j]}`);
      j++;
    }
  }
  const range = (start: number, count: number): string => (count === 0 ? `${start - 1},0` : `${start},${count}`);
  return `${[`--- ${labels.base}`, `+++ ${labels.changed}`, `@@ -${range(1, a.length)} +${range(1, b.length)} @@`, ...lines].join("\n")}\n`;
}
