/** Schema of `databases`: the PostgreSQL databases of the branch (name → `{ owner }`). */
import { databaseNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "./common.js";
import { roleNameSchema } from "./roles.js";

/** One `DatabaseDef` (strict): the owning role, declared under `roles` or already on the branch. */
const databaseDefSchema = strictObject({ owner: roleNameSchema }, "{ owner: string }");

/** `databases`: database name → `DatabaseDef`. */
export const databasesSchema = recordOf(nameKey("database", databaseNameIssue), databaseDefSchema, "an object of database name → { owner }");
