import type { ResolvedPolicy } from "../../model/desired-state.js";
import type { LiveState } from "../../model/live-state.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import { changeId, existingIds, fieldsView, makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { lookalikeConflict } from "../../diff/lookalike-names.js";
import { ROLE_FIELDS } from "./fields.js";

/** Whether the policy manages roles: it declares some or prunes them. */
function managesRoles(desired: ResolvedPolicy): boolean {
  return desired.roles.length > 0 || desired.prune.roles;
}

/**
 * Diffs declared roles field by field (`kinds/role/fields.ts`). A role on the branch is recognised,
 * whether created here or inherited from the parent; an absent one is created (additive). The
 * platform cannot change a role's fields once it exists: a `login` difference is the blocking
 * `ROLE_LOGIN_IMMUTABLE`. Passwords are never compared.
 */
export function diffRoles(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  if (live.roles === undefined) return;
  const byName = new Map(live.roles.map((r) => [r.name, r]));
  for (const role of desired.roles) {
    const current = byName.get(role.name);
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address: `role.${role.name}`, kind: "role", action: "create", class: "additive", fields: ["*"],
          before: null, after: fieldsView(ROLE_FIELDS, role),
          reason: `role ${role.name} is declared and absent on the branch; the platform generates its password`,
          dependsOn: existingIds(sink.changes, ["update:branch", "update:compute"]),
          op: { type: "role-create", name: role.name },
          planned: { login: role.login },
        }),
      );
    } else if (ROLE_FIELDS.some((field) => !sameFieldValue(field, current[field.modelKey], role[field.modelKey]))) {
      sink.conflicts.push({
        kind: "role", identifier: role.name, field: "login", current: current.login, desired: role.login, blocking: true, code: "ROLE_LOGIN_IMMUTABLE",
        reason: `role ${role.name} ${current.login ? "can" : "cannot"} log in; the platform cannot change that for an existing role. Declare login: ${current.login}, or use a new role name`,
      });
    }
  }
}

/**
 * Undeclared roles: deleted under `prune.roles` (an override, after the database changes that
 * take their databases away), else unmanaged. Never deleted: protected roles, roles the parent
 * branch also has (inherited), and roles that still own a database after this plan
 * (`STILL_REFERENCED`). Runs after the database diff and prune.
 */
export function pruneRoles(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  if (live.roles === undefined || !managesRoles(desired)) return;
  const declared = new Set(desired.roles.map((r) => r.name));
  const planned = new Set(sink.changes.map((c) => c.change.id));
  const declaredOwner = new Map(desired.databases.map((d) => [d.name, d.owner]));
  // Who owns each database once this plan ran: its declared owner, else the live one unless it is deleted.
  const ownersAfter = new Map<string, string>();
  for (const [database, owner] of live.databaseOwners ?? []) {
    if (!planned.has(changeId("delete", `database.${database}`))) ownersAfter.set(database, declaredOwner.get(database) ?? owner);
  }
  for (const d of desired.databases) ownersAfter.set(d.name, d.owner);
  const parent = new Set(live.parentRoles ?? []);
  for (const role of live.roles) {
    if (declared.has(role.name)) continue;
    const address = `role.${role.name}`;
    const unmanaged = (reason: string, inherited = false): void => {
      sink.unmanaged.push({ address, kind: "role", identifier: role.name, reason, ...(inherited ? { inherited: true } : {}) });
    };
    if (!desired.prune.roles) {
      unmanaged(`role ${role.name} is not declared (set prune.roles to delete it)`);
      continue;
    }
    const lookalike = lookalikeConflict("role", role.name, declared);
    if (lookalike !== undefined) {
      sink.conflicts.push(lookalike);
      continue;
    }
    if (role.protected) {
      unmanaged(`role ${role.name} is protected by the platform; it is never pruned`);
      continue;
    }
    if (parent.has(role.name)) {
      unmanaged(`role ${role.name} is inherited from the parent branch; it is never pruned`, true);
      continue;
    }
    const owned = [...ownersAfter].filter(([, owner]) => owner === role.name).map(([database]) => database).sort();
    if (owned.length > 0) {
      sink.conflicts.push({
        kind: "role", identifier: role.name, field: "*", current: owned.map((d) => `database ${d}`), desired: null, blocking: true, code: "STILL_REFERENCED",
        reason: `role ${role.name} would be pruned but still owns ${owned.map((d) => `database ${d}`).join(", ")}; declare the role, or give those databases another owner`,
      });
      continue;
    }
    const ownedBefore = [...(live.databaseOwners ?? [])].filter(([, owner]) => owner === role.name).map(([database]) => database);
    sink.changes.push(
      makeChange({
        address, kind: "role", action: "delete", class: "override", fields: ["*"],
        before: fieldsView(ROLE_FIELDS, role), after: null,
        reason: `role ${role.name} is not declared and prune.roles is set`,
        dependsOn: existingIds(sink.changes, ownedBefore.flatMap((d) => [changeId("delete", `database.${d}`), changeId("update", `database.${d}`)])),
        op: { type: "role-delete", name: role.name },
        planned: {},
      }),
    );
  }
}
