/** The policy's `roles`: the public types, the schema (name → options), from the role descriptor, and the static policy stage. */
import { roleNameIssue } from "../../rules/pg-names.js";
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import { sortedEntries } from "../../config/sort.js";
import { fromPolicy } from "../../model/kinds/field.js";
import { ROLE_DEFAULTS, ROLE_FIELDS, type RoleResolvedFields } from "./fields.js";
import type { Assert, Same } from "../../config/schemas/type-match.js";
import type { RoleValues } from "./fields.js";

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

/** The role kind's top-level key of the policy. */
export interface RolePolicyKeys {
  /** PostgreSQL roles, keyed by role name (1–63 bytes, not `pg_…`). Omitted = not managed. */
  roles?: Record<string, RoleDef>;
}

/** The role kind's flag of `prune`. */
export interface RolePruneFlag {
  /** Delete roles the policy does not declare (not inherited, not protected, owning no database). */
  roles?: boolean;
}

/** The role kind's static policy: `roles`, `prune.roles` (only by name), the resolved roles. */
export const rolePolicy = kindPolicy({
  order: 70,
  keys: { roles: rolesSchema },
  prune: { flag: "roles", order: 50, explicitOnly: true },
  resolve: ({ roles }): RoleResolvedFields => ({ roles: sortedEntries(roles ?? {}).map(([name, role]) => ({ name, ...ROLE_DEFAULTS, ...fromPolicy(ROLE_FIELDS, role) })) }),
});

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<Required<RoleDef>, RoleValues>>,
];
