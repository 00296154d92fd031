/**
 * The auth resource kind (docs/policy.md#auth): the branch's auth integration. A policy only
 * switches it on (`auth` is a toggle, never disabled by a policy); the one field it carries is
 * the database it lives on, which the policy states as `dataApi.database` (default `neondb`).
 * The inspector, the diff and the handler read this descriptor; the pull writes `auth: true`.
 */
import type { FieldDescriptor, ModelValues } from "../../model/kinds/field.js";

/** The auth integration's fields, in the order plans and requests list them. */
export const AUTH_FIELDS = [
  {
    policyKey: "database",
    modelKey: "databaseName",
    wireKey: "database_name",
    rule: { type: "string", nonEmpty: true },
    compare: "exact",
    changeClass: "additive",
    // `dataApi.database` is pulled with the Data API.
    pulled: false,
    // Sent as `database_name`, read back as `db_name`.
    wire: { read: (record) => record.db_name, write: (value) => ({ database_name: value }) },
  },
] as const satisfies readonly FieldDescriptor[];

/** The auth integration's fields in model vocabulary. */
export type AuthValues = ModelValues<typeof AUTH_FIELDS>;

/** The auth integration's operation: `planned`, the database it is created on. */
export interface AuthOperations {
  "auth-create": { op: Record<never, never>; planned: AuthValues };
}

/** The branch's auth as read: enabled with its fields, or not enabled. */
export type LiveAuth = { enabled: boolean } & Partial<AuthValues>;

/** The auth kind's field of the live state (`LiveState`). */
export interface AuthLiveFields {
  auth?: LiveAuth;
}

/** The auth integration's fields of the resolved policy. */
export interface AuthResolvedFields {
  /** `false` and omitted both resolve to "unmanaged" (auth is never disabled by a policy). */
  auth: "enabled" | "unmanaged";
  /** True when authored as off, for the `AUTH_FALSE_IGNORED` warning. */
  authDeclaredOff: boolean;
}
