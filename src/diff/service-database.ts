/** What the auth integration and the Data API share in a diff: the service database and the changes they wait for. */
import { type ResolvedPolicy, serviceDatabase } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import { existingIds, } from "./change-builder.js";
import type { DiffSink } from "./plan-types.js";

/**
 * Ids of the changes a service change waits for: the control-plane ones (`update:branch`,
 * `update:compute`) and the creation of the service database when this plan creates it.
 */
export function controlPlaneIds(sink: DiffSink, database?: string): string[] {
  return existingIds(sink.changes, ["update:branch", "update:compute", ...(database === undefined ? [] : [`create:database.${database}`])]);
}

/**
 * `SERVICE_DATABASE_MISSING` when the service database is neither on the branch nor declared
 * under `databases` (a claimed project's database, for one, is not `neondb`).
 */
export function databaseMissing(desired: ResolvedPolicy, live: LiveState, kind: "auth" | "dataApi", sink: DiffSink): boolean {
  const db = serviceDatabase(desired);
  if (live.databases === undefined || live.databases.includes(db)) return false;
  if (sink.changes.some((c) => c.change.id === `create:database.${db}`)) return false;
  sink.conflicts.push({
    kind,
    identifier: live.branch.name,
    field: "database",
    current: live.databases,
    desired: db,
    reason:
      `the service database "${db}" does not exist on branch "${live.branch.name}" (databases: ${live.databases.join(", ") || "none"}); ` +
      "set dataApi.database to one of them, or declare it under databases",
    blocking: true,
    code: "SERVICE_DATABASE_MISSING",
  });
  return true;
}
