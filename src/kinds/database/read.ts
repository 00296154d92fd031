/** Database records → the live state's database owners. Pure. */
import type { ApiDatabase } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
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
