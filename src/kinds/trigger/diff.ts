import type { ResolvedPolicy } from "../../model/desired-state.js";
import type { ResolvedTrigger } from "./fields.js";
import type { LiveState } from "../../model/live-state.js";
import type { Json } from "../../model/json.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import { changeId, existingIds, fieldsView, makeChange } from "../../diff/change-builder.js";
import { lookalikeConflict } from "../../diff/lookalike-names.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { triggerFields, type LiveTrigger } from "./fields.js";

/** The compared fields of a trigger in policy vocabulary (`fields.ts`): its type, then its fields, absent ones `null`. */
export function triggerView(t: ResolvedTrigger | LiveTrigger): { [key: string]: Json } {
  return { type: t.type, ...fieldsView(triggerFields(t.type), t) };
}

/**
 * Diffs declared triggers (create, update incl. a branch-local copy of an inherited one,
 * `TRIGGER_TYPE_CHANGED`) and handles undeclared ones (delete under `prune.triggers`, else unmanaged).
 */
export function diffTriggers(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  const byName = new Map((live.triggers ?? []).map((t) => [t.name, t]));
  for (const t of desired.triggers) {
    const address = `trigger.${t.name}`;
    const deps = existingIds(sink.changes, [
      changeId("create", `function.${t.function}`),
      changeId("update", `function.${t.function}`),
      ...(t.type === "storage_object_created" ? [changeId("create", `bucket.${t.bucket}`)] : []),
    ]);
    const current = byName.get(t.name);
    const after = triggerView(t);
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address, kind: "trigger", action: "create", class: "additive", fields: ["*"], before: null, after,
          reason: `trigger ${t.name} is declared and absent on the branch`, dependsOn: deps,
          op: { type: "trigger-create", name: t.name }, planned: t,
        }),
      );
      continue;
    }
    if (current.type !== t.type) {
      sink.conflicts.push({
        kind: "trigger", identifier: t.name, field: "type", current: current.type, desired: t.type, blocking: true, code: "TRIGGER_TYPE_CHANGED",
        reason: `trigger ${t.name} exists with type ${current.type}; the platform cannot change a trigger's type. Rename the trigger, or delete the remote one first`,
      });
      continue;
    }
    const before = triggerView(current);
    const fields = triggerFields(t.type).filter((f) => !sameFieldValue(f, before[f.policyKey], after[f.policyKey])).map((f) => f.policyKey);
    if (fields.length === 0) continue;
    const copy = current.inherited ? "; the trigger is inherited, so this makes a branch-local copy" : "";
    sink.changes.push(
      makeChange({
        address, kind: "trigger", action: "update", class: "additive", fields: [...fields], before, after,
        reason: `trigger ${t.name} differs in ${fields.join(", ")}${copy}`, dependsOn: deps,
        op: { type: "trigger-update", name: t.name, id: current.id, fields: [...fields] }, planned: t,
      }),
    );
  }
  const declared = new Set(desired.triggers.map((t) => t.name));
  for (const t of live.triggers ?? []) {
    if (declared.has(t.name)) continue;
    const address = `trigger.${t.name}`;
    const lookalike = lookalikeConflict("trigger", t.name, declared);
    if (t.inherited) {
      sink.unmanaged.push({ address, kind: "trigger", identifier: t.name, inherited: true, reason: `trigger ${t.name} is inherited from the parent branch; it is never pruned` });
    } else if (!desired.prune.triggers) {
      sink.unmanaged.push({ address, kind: "trigger", identifier: t.name, reason: `trigger ${t.name} is not declared (set prune.triggers to delete it)` });
    } else if (lookalike !== undefined) {
      sink.conflicts.push(lookalike);
    } else {
      sink.changes.push(
        makeChange({
          address, kind: "trigger", action: "delete", class: "override", fields: ["*"], before: triggerView(t), after: null,
          reason: `trigger ${t.name} is not declared and prune.triggers is set`,
          op: { type: "trigger-delete", name: t.name, id: t.id }, planned: {},
        }),
      );
    }
  }
}
