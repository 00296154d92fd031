/** Databases in a pulled config. Pure. */
import type { ApiDatabase } from "../../api/wire-types.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { pulledFields } from "../../inspect/pulled-fields.js";
import { databaseNameIssue } from "../../rules/pg-names.js";
import { DATABASE_FIELDS } from "./fields.js";
import type { DatabaseDef } from "./policy.js";

/** The branch's databases as `databases` (name → owner), sorted; undeclarable names and owners left out. */
export function pulledDatabases(databases: readonly ApiDatabase[]): Record<string, DatabaseDef> {
  const kept = databases.filter((d) => databaseNameIssue(d.name) === null).sort((a, b) => compareCodePoints(a.name, b.name));
  return Object.fromEntries(
    kept.flatMap((d) => {
      const { owner } = pulledFields(DATABASE_FIELDS, d);
      return typeof owner === "string" ? [[d.name, { owner }]] : [];
    }),
  );
}

/** `databases` when the branch has a database a policy can declare. */
export const databasePull: KindPull = {
  policy: (records) => {
    const databases = pulledDatabases(records.databases);
    return Object.keys(databases).length === 0 ? {} : { databases };
  },
};
