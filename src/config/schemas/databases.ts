/** Schema of `databases`: the PostgreSQL databases of the branch (name → `{ owner }`), from the database descriptor. */
import { DATABASE_FIELDS } from "../../model/kinds/databases.js";
import { databaseNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "./common.js";
import { fieldsShape } from "./fields.js";

const { owner } = fieldsShape(DATABASE_FIELDS);

/** One `DatabaseDef` (strict): the owning role (required), declared under `roles` or already on the branch. */
const databaseDefSchema = strictObject({ owner: owner.unwrap() }, "{ owner: string }");

/** `databases`: database name → `DatabaseDef`. */
export const databasesSchema = recordOf(nameKey("database", databaseNameIssue), databaseDefSchema, "an object of database name → { owner }");
