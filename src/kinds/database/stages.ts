/** The database kind's stages: its diff and prune and its handlers. */
import { REPLICA_OWNER } from "../../api/wire/replica-seed.js";
import type { KindStages } from "../module.js";
import { nameRecord } from "../../model/own-record.js";
import { databaseRead } from "./read.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyDatabaseCreate, applyDatabaseDelete, applyDatabaseUpdate } from "./apply.js";
import { diffDatabases, pruneDatabases } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const databaseStages: KindStages<"database"> = {
  read: databaseRead,
  compared: (live) => ({
    databases: live.databases,
    databaseOwners: live.databaseOwners === undefined ? undefined : nameRecord(live.databaseOwners),
    parentDatabases: live.parentDatabases,
    dataApiDatabases: live.dataApiDatabases,
  }),
  diff: (desired, live, _options, sink) => diffDatabases(desired, live, sink),
  prune: (desired, live, options, sink) => pruneDatabases(desired, live, options.allowDataLoss, sink),
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
