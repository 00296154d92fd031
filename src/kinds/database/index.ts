/** The database kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { DatabaseOperations, DatabaseLiveFields, DatabaseResolvedFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { databasePull } from "./pull.js";
import { type DatabasePolicyKeys, type DatabasePruneFlag, databasePolicy } from "./policy.js";

/** Postgres databases (`databases`). */
export const databaseKind: KindLight<"database"> = {
  name: "database",
  scope: "named",
  prunedByName: true,
  policy: databasePolicy,
  pull: databasePull,
  stages: async () => (await import("./stages.js")).databaseStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: PostgreSQL databases. */
    database: { scope: "named"; operations: DatabaseOperations; liveFields: DatabaseLiveFields; resolvedFields: DatabaseResolvedFields; prunedByName: true; policy: { keys: DatabasePolicyKeys; prune: DatabasePruneFlag } };
  }
}
