/** The database kind as the registry holds it: its diff and prune and its handlers. */
import type { DatabaseOperations } from "./fields.js";
import { REPLICA_OWNER } from "../../api/wire/replica-seed.js";
import { databasePull } from "./pull.js";
import type { KindModule } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyDatabaseCreate, applyDatabaseDelete, applyDatabaseUpdate } from "./apply.js";
import { diffDatabases, pruneDatabases } from "./diff.js";

/** Postgres databases (`databases`). */
export const databaseKind: KindModule<"database"> = {
  name: "database",
  scope: "named",
  prunedByName: true,
  diff: (desired, live, _options, sink) => diffDatabases(desired, live, sink),
  prune: (desired, live, options, sink) => pruneDatabases(desired, live, options.allowDataLoss, sink),
  pull: databasePull,
  handlers: {
    "database-create": applyDatabaseCreate,
    "database-update": applyDatabaseUpdate,
    "database-delete": (ctx, change, op) => applyDatabaseDelete(ctx, change.id, op),
  },
  expectedWaits: { "database-create": () => OPERATION_WAIT_MS, "database-update": () => OPERATION_WAIT_MS, "database-delete": () => OPERATION_WAIT_MS },
  digests: { "database-create": (planned) => planned, "database-update": (planned) => planned },
  seed: (live) => ({
    branch: { databases: (live.databases ?? []).map((name) => ({ name, owner_name: live.databaseOwners?.get(name) ?? REPLICA_OWNER })) },
    parent: { databases: (live.parentDatabases ?? []).map((name) => ({ name, owner_name: REPLICA_OWNER })) },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: PostgreSQL databases. */
    database: { scope: "named"; operations: DatabaseOperations; prunedByName: true };
  }
}
