/** Database records → the live state's databases and their owners: the database kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiDatabase } from "../../api/wire-types.js";
import { compareCodePoints, sortedNames } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import { DATABASE_FIELDS } from "./fields.js";

/** Each database's owner by database name, read through the database descriptor (an owner breaking its rule leaves the database out). */
export function normalizeDatabaseOwners(databases: readonly ApiDatabase[]): ReadonlyMap<string, string> {
  const owners = new Map<string, string>();
  for (const database of [...databases].sort((a, b) => compareCodePoints(a.name, b.name))) {
    const { owner } = fromWire(DATABASE_FIELDS, database);
    if (owner !== undefined) owners.set(database.name, owner);
  }
  return owners;
}

/**
 * The database kind's read: the databases with the roles (their owners) when the policy declares
 * databases or states their prune flag, the parent's names when it does (inherited detection), and
 * auth when pruning them (the database auth lives on is never deleted).
 */
export const databaseRead: KindRead<LiveContributionOf<"database">> = {
  pull: { needs: { databases: true } },
  needs: ({ databases, prune, pruneStated }) => {
    const listed = prune.databases || pruneStated.databases;
    if (databases.length === 0 && !listed) return {};
    return { databases: true, roles: true, ...(listed ? { parentRolesDatabases: true } : {}), ...(prune.databases ? { auth: true } : {}) };
  },
  // Owners are read whenever the roles are: the diff of either kind compares them.
  slice: ({ databases, roles, parentRolesDatabases }) => ({
    ...(databases === undefined ? {} : { databases: sortedNames(databases) }),
    ...(roles === undefined ? {} : { databaseOwners: normalizeDatabaseOwners(databases ?? []) }),
    ...(parentRolesDatabases === undefined ? {} : { parentDatabases: sortedNames(parentRolesDatabases.databases) }),
  }),
  // A database serving a Data API is in use and never deleted: the first diff's deletes say which to check.
  guards: {
    needs: (changes) => {
      const deleted = changes.flatMap(({ op }) => (op.type === "database-delete" ? [op.name] : []));
      return deleted.length === 0 ? {} : { dataApiServed: deleted };
    },
    slice: ({ dataApiServed }) => (dataApiServed === undefined ? {} : { dataApiDatabases: dataApiServed }),
  },
};
