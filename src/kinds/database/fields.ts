/**
 * The database resource kind (docs/policy.md#roles-and-databases): the one place that names each
 * field of a PostgreSQL database in policy, model and wire vocabulary. The policy schema, the
 * public type's compile-time check, the request schemas, the inspector, the diff, the handlers
 * and the pull all read it. Giving a database another owner is an override. Plain data, no I/O.
 */
import { type ModelValues, defineField } from "../../model/kinds/field.js";

/**
 * The fields of a database, in the order plans, pulls and requests list them. The platform
 * reports any owner name; a policy names a role it could declare (`policyRule`).
 */
export const DATABASE_FIELDS = [{ ...defineField("owner", "owner_name", { type: "string", nonEmpty: true }, "override"), policyRule: { type: "role-name" } }] as const;

/** A database's fields in model (= policy) vocabulary, every key present. */
export type DatabaseValues = ModelValues<typeof DATABASE_FIELDS>;

/** The operations on database `op.name`: `planned`, the fields it is created with (an update's: the changed ones). */
export interface DatabaseOperations {
  "database-create": { op: { name: string }; planned: DatabaseValues };
  "database-update": { op: { name: string }; planned: Partial<DatabaseValues> };
  "database-delete": { op: { name: string }; planned: Record<never, never> };
}

/** The database kind's fields of the live state (`LiveState`). */
export interface DatabaseLiveFields {
  /** Database names, sorted. */
  databases?: string[];
  /** Owner of each database, by name; read with the roles. */
  databaseOwners?: ReadonlyMap<string, string>;
  /** Database names on the parent branch, sorted; read only when pruning roles or databases (inherited detection). */
  parentDatabases?: string[];
  /**
   * Databases that serve a Data API, sorted; read only for databases the plan would delete
   * (their live dependencies: a database in use is never deleted).
   */
  dataApiDatabases?: string[];
}

/** The databases' field of the resolved policy. */
export interface DatabaseResolvedFields {
  /** Declared databases, sorted by name. */
  databases: ({ name: string } & DatabaseValues)[];
}
