/** Schema of `roles`: the PostgreSQL roles of the branch (name → options), from the role descriptor. */
import { ROLE_FIELDS } from "../../model/kinds/roles.js";
import { roleNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "./common.js";
import { fieldsShape } from "./fields.js";

/** A role name: a PostgreSQL name of 1–63 bytes, not `pg_…`. */
export const roleNameSchema = nameKey("role", roleNameIssue);

/** One `RoleDef` (strict): `login: false` creates a role that cannot log in. */
const roleDefSchema = strictObject(fieldsShape(ROLE_FIELDS), "{ login?: boolean }");

/** `roles`: role name → `RoleDef`. */
export const rolesSchema = recordOf(roleNameSchema, roleDefSchema, "an object of role name → role options");
