/** The policy's `databases`: the public type and the schema (name → `{ owner }`), from the database descriptor. */
import { databaseNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { DATABASE_FIELDS } from "./fields.js";

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
