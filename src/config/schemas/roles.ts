/** Schema of `roles`: the PostgreSQL roles of the branch (name → options). */
import * as z from "zod";
import { roleNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "./common.js";

/** A role name: a PostgreSQL name of 1–63 bytes, not `pg_…`. */
export const roleNameSchema = nameKey("role", roleNameIssue);

/** One `RoleDef` (strict): `login: false` creates a role that cannot log in. */
const roleDefSchema = strictObject({ login: z.boolean().optional() }, "{ login?: boolean }");

/** `roles`: role name → `RoleDef`. */
export const rolesSchema = recordOf(roleNameSchema, roleDefSchema, "an object of role name → role options");
