/** The policy's `databases`: the public types, the schema (name → `{ owner }`), from the database descriptor, and the static policy stage. */
import { databaseNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import { sortedEntries } from "../../config/sort.js";
import { DATABASE_FIELDS, type DatabaseResolvedFields } from "./fields.js";
import type { Assert, Same } from "../../config/schemas/type-match.js";
import type { DatabaseValues } from "./fields.js";

/** A PostgreSQL database of the branch. */
export interface DatabaseDef {
  /** The owning role: declared under `roles`, or already on the branch (e.g. inherited). */
  owner: string;
}

const { owner } = fieldsShape(DATABASE_FIELDS);

/** One `DatabaseDef` (strict): the owning role (required), declared under `roles` or already on the branch. */
const databaseDefSchema = strictObject({ owner: owner.unwrap() }, "{ owner: string }");

/** `databases`: database name → `DatabaseDef`. */
export const databasesSchema = recordOf(nameKey("database", databaseNameIssue), databaseDefSchema, "an object of database name → { owner }");

/** The database kind's top-level key of the policy. */
export interface DatabasePolicyKeys {
  /** PostgreSQL databases, keyed by database name (1–63 bytes). Omitted = not managed. */
  databases?: Record<string, DatabaseDef>;
}

/** The database kind's flag of `prune`. */
export interface DatabasePruneFlag {
  /** Delete databases the policy does not declare (not inherited); destructive: needs `allowDataLoss`. */
  databases?: boolean;
}

/** The database kind's static policy: `databases`, `prune.databases` (only by name), the resolved databases. */
export const databasePolicy = kindPolicy({
  order: 80,
  keys: { databases: databasesSchema },
  prune: { flag: "databases", order: 60, explicitOnly: true },
  resolve: ({ databases }): DatabaseResolvedFields => ({ databases: sortedEntries(databases ?? {}).map(([name, database]) => ({ name, owner: database.owner })) }),
});

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<DatabaseDef, DatabaseValues>>,
];
