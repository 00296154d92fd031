import { type ResolvedPolicy, serviceDatabase } from "../../model/desired-state.js";
import type { LiveState } from "../../model/live-state.js";
import { sameFieldValue, strongestClass } from "../../model/kinds/field.js";
import { changeId, existingIds, fieldsView, makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { lookalikeConflict } from "../../diff/lookalike-names.js";
import { didYouMean } from "../../rules/close-names.js";
import { DATABASE_FIELDS, type DatabaseValues } from "./fields.js";

/** Whether the policy manages databases: it declares some or prunes them. */
function managesDatabases(desired: ResolvedPolicy): boolean {
  return desired.databases.length > 0 || desired.prune.databases;
}

/**
 * Diffs declared databases (after the roles) field by field (`kinds/database/fields.ts`). A database on
 * the branch is recognised, whether created here or inherited; an absent one is created
 * (additive, after its owner's creation); a different owner is an update (override). An owner that is neither on the branch nor declared
 * under `roles` is the blocking `UNKNOWN_ROLE`.
 */
export function diffDatabases(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  if (live.databaseOwners === undefined) return;
  const roles = new Set((live.roles ?? []).map((r) => r.name));
  for (const database of desired.databases) {
    const ownerCreate = existingIds(sink.changes, [changeId("create", `role.${database.owner}`)]);
    if (!roles.has(database.owner) && ownerCreate.length === 0) {
      const known = [...desired.roles.map((r) => r.name), ...roles];
      sink.conflicts.push({
        kind: "database", identifier: database.name, field: "owner", current: live.databaseOwners.get(database.name) ?? null, desired: database.owner, blocking: true, code: "UNKNOWN_ROLE",
        reason: `database ${database.name} is to be owned by role ${database.owner}, which is neither on the branch nor declared under roles${didYouMean(database.owner, known)}; declare the role under roles, or name one the branch has`,
      });
      continue;
    }
    const owner = live.databaseOwners.get(database.name);
    const current: DatabaseValues | undefined = owner === undefined ? undefined : { owner };
    const dependsOn = [...existingIds(sink.changes, ["update:branch", "update:compute"]), ...ownerCreate];
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address: `database.${database.name}`, kind: "database", action: "create", class: "additive", fields: ["*"],
          before: null, after: fieldsView(DATABASE_FIELDS, database),
          reason: `database ${database.name} is declared and absent on the branch`,
          dependsOn,
          op: { type: "database-create", name: database.name },
          planned: { owner: database.owner },
        }),
      );
      continue;
    }
    const changed = DATABASE_FIELDS.filter((field) => !sameFieldValue(field, current[field.modelKey], database[field.modelKey]));
    if (changed.length > 0) {
      sink.changes.push(
        makeChange({
          address: `database.${database.name}`, kind: "database", action: "update", class: strongestClass(changed), fields: changed.map((field) => field.policyKey),
          before: fieldsView(DATABASE_FIELDS, current), after: fieldsView(DATABASE_FIELDS, database),
          reason: `database ${database.name} is owned by ${current.owner} on the branch; the policy gives it to ${database.owner}`,
          dependsOn,
          op: { type: "database-update", name: database.name },
          planned: { owner: database.owner },
        }),
      );
    }
  }
}

/**
 * What uses each database, from the **live** state first (the auth integration and every Data
 * API the branch has, whatever the policy says about them), then from the policy (the service
 * database of the auth or Data API it turns on). `"*"` holds users whose database the platform
 * did not report: they make every database count as used.
 */
export function databaseUsers(desired: ResolvedPolicy, live: LiveState): ReadonlyMap<string, readonly string[]> {
  const users = new Map<string, string[]>();
  const add = (database: string, user: string): void => {
    const list = users.get(database) ?? [];
    if (!list.includes(user)) list.push(user);
    users.set(database, list);
  };
  if (live.auth?.enabled === true) add(live.auth.databaseName ?? "*", "the auth integration on the branch");
  if (live.dataApi?.enabled === true) add(live.dataApi.database, "the Data API on the branch");
  for (const database of live.dataApiDatabases ?? []) add(database, "the Data API on the branch");
  if (desired.auth === "enabled") add(serviceDatabase(desired), "auth in the policy");
  if (desired.dataApi.state === "enabled") add(desired.dataApi.database, "the Data API in the policy");
  return users;
}

/**
 * Undeclared databases: deleted under `prune.databases`, else unmanaged. A delete loses the
 * database's data, so it is destructive and needs `allowDataLoss` (else the blocking
 * `DATABASE_DELETE_NEEDS_DATA_LOSS`). Never deleted: databases the parent branch also has
 * (inherited) and any database something uses (`databaseUsers`: the live auth integration or
 * Data API, or the policy's), a blocking `STILL_REFERENCED` naming the user.
 */
export function pruneDatabases(desired: ResolvedPolicy, live: LiveState, allowDataLoss: boolean, sink: DiffSink): void {
  if (live.databaseOwners === undefined || !managesDatabases(desired)) return;
  const declared = new Set(desired.databases.map((d) => d.name));
  const parent = new Set(live.parentDatabases ?? []);
  const users = databaseUsers(desired, live);
  for (const [name, owner] of live.databaseOwners) {
    if (declared.has(name)) continue;
    const address = `database.${name}`;
    if (!desired.prune.databases) {
      sink.unmanaged.push({ address, kind: "database", identifier: name, reason: `database ${name} is not declared (set prune.databases to delete it)` });
      continue;
    }
    if (parent.has(name)) {
      sink.unmanaged.push({ address, kind: "database", identifier: name, reason: `database ${name} is inherited from the parent branch; it is never pruned`, inherited: true });
      continue;
    }
    const lookalike = lookalikeConflict("database", name, declared);
    if (lookalike !== undefined) {
      sink.conflicts.push(lookalike);
      continue;
    }
    const using = [...(users.get(name) ?? []), ...(users.get("*") ?? []).map((user) => `${user} (whose database the platform did not report)`)];
    if (using.length > 0) {
      sink.conflicts.push({
        kind: "database", identifier: name, field: "*", current: using, desired: null, blocking: true, code: "STILL_REFERENCED",
        reason: `database ${name} would be pruned but it is used by ${using.join(" and ")}; declare it under databases (a database in use is never deleted)`,
      });
      continue;
    }
    if (!allowDataLoss) {
      sink.conflicts.push({
        kind: "database", identifier: name, field: "*", current: { owner }, desired: null, blocking: true, code: "DATABASE_DELETE_NEEDS_DATA_LOSS",
        reason: `database ${name} would be pruned, which deletes its data; declare it, or pass allowDataLoss (--allow-data-loss) to delete it`,
      });
      continue;
    }
    sink.changes.push(
      makeChange({
        address, kind: "database", action: "delete", class: "destructive", fields: ["*"],
        before: fieldsView(DATABASE_FIELDS, { owner }), after: null,
        reason: `database ${name} is not declared and prune.databases is set; its data is deleted with it`,
        dependsOn: existingIds(sink.changes, ["update:branch", "update:compute"]),
        op: { type: "database-delete", name },
        planned: {},
      }),
    );
  }
}
