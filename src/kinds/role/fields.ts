/**
 * The role resource kind (docs/policy.md#roles-and-databases): the one place that names each
 * field of a PostgreSQL role in policy, model and wire vocabulary. The policy schema, the public
 * type's compile-time check, the request schema, the inspector, the diff, the handler and the pull
 * all read it. The platform has no role update and never reports a password: a role's fields are
 * fixed once it exists (a difference is a blocking conflict, not a change). Plain data, no I/O.
 */
import { type ModelValues, type WireForm, defineField } from "../../model/kinds/field.js";

/** `login` travels as `no_login: true` on create (omitted for a login role) and comes back as `authentication_method: "no_login"`. */
const LOGIN_WIRE: WireForm = {
  read: (record) => record["authentication_method"] !== "no_login",
  write: (value) => (value === false ? { no_login: true } : {}),
};

/** The fields of a role, in the order plans, pulls and requests list them. */
export const ROLE_FIELDS = [{ ...defineField("login", "no_login", { type: "boolean" }, "override"), wire: LOGIN_WIRE }] as const;

/** A role's fields in model (= policy) vocabulary, every key present. */
export type RoleValues = ModelValues<typeof ROLE_FIELDS>;

/** What an omitted field resolves to; a pull leaves out a value equal to it. */
export const ROLE_DEFAULTS: RoleValues = { login: true };

/** The operations on role `op.name`: `planned`, the fields it is created with. */
export interface RoleOperations {
  "role-create": { op: { name: string }; planned: RoleValues };
  "role-delete": { op: { name: string }; planned: Record<never, never> };
}

/** A PostgreSQL role of the branch: its name, its fields (above) and whether the platform protects it. */
export interface LiveRole extends RoleValues {
  name: string;
  /** Platform-managed: never deleted. */
  protected: boolean;
}

/** The role kind's fields of the live state (`LiveState`). */
export interface RoleLiveFields {
  /** Read when the policy manages roles or databases; the platform's passwords are never read. */
  roles?: LiveRole[];
  /** Role names on the parent branch, sorted; read only when pruning roles or databases (inherited detection). */
  parentRoles?: string[];
}

/** The roles' field of the resolved policy. */
export interface RoleResolvedFields {
  /** Declared roles, sorted by name, every field resolved (`login` defaults to true). */
  roles: ({ name: string } & RoleValues)[];
}
