/** The policy's `roles`: the public type and the schema (name → options), from the role descriptor. */
import { roleNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { ROLE_FIELDS } from "./fields.js";

/** A PostgreSQL role of the branch. Its password is the platform's; the policy never holds one. */
export interface RoleDef {
  /** `false` creates a role that cannot log in (`NOLOGIN`); fixed once created. @default true */
  login?: boolean;
}

/** A role name: a PostgreSQL name of 1–63 bytes, not `pg_…`. */
export const roleNameSchema = nameKey("role", roleNameIssue);

/** One `RoleDef` (strict): `login: false` creates a role that cannot log in. */
const roleDefSchema = strictObject(fieldsShape(ROLE_FIELDS), "{ login?: boolean }");

/** `roles`: role name → `RoleDef`. */
export const rolesSchema = recordOf(roleNameSchema, roleDefSchema, "an object of role name → role options");
