import type { Json } from "../model/json.js";
import type { FieldDescriptor } from "../model/kinds/field.js";
import type { Change, ChangeAction } from "../model/plan.js";
import type { OpOf, OpType, OperationChange, PlannedChange, PlannedOf } from "../model/planned-change.js";
import type { DiffSink } from "./plan-types.js";

/** Everything needed to describe one change of operation `T`; `id` is derived from action and address. */
export type ChangeSpec<T extends OpType> = Omit<Change, "id" | "dependsOn"> & { dependsOn?: string[]; op: OpOf<T>; planned: PlannedOf<T> };

/** The stable id of a change: `${action}:${address}`. */
export function changeId(action: ChangeAction, address: string): string {
  return `${action}:${address}`;
}

/** Builds a planned change from its spec. */
export function makeChange<T extends OpType>(spec: ChangeSpec<T>): OperationChange<T> {
  const change: Change = {
    id: changeId(spec.action, spec.address),
    address: spec.address,
    kind: spec.kind,
    action: spec.action,
    class: spec.class,
    fields: spec.fields,
    before: spec.before,
    after: spec.after,
    reason: spec.reason,
    dependsOn: [...new Set(spec.dependsOn ?? [])].sort(),
  };
  return { change, op: spec.op, planned: spec.planned };
}

/** The ids of a change list counted so far, and the last change counted. */
interface CountedIds {
  ids: Set<string>;
  counted: number;
  last: PlannedChange | undefined;
}

const countedIds = new WeakMap<readonly PlannedChange[], CountedIds>();

/**
 * Ids of the planned changes whose id is one of `ids` (keeps only those that exist). The kinds'
 * diffs ask this of their sink's list once per resource while they append to it, so the ids of
 * each list are kept and only the changes appended since the last call are counted: linear in
 * the plan, not quadratic. A list changed other than by appending (its last counted change moved
 * or gone) is counted again from the start.
 */
export function existingIds(changes: readonly PlannedChange[], ids: readonly string[]): string[] {
  let seen = countedIds.get(changes);
  if (seen === undefined || seen.counted > changes.length || (seen.counted > 0 && changes[seen.counted - 1] !== seen.last)) {
    seen = { ids: new Set(), counted: 0, last: undefined };
    countedIds.set(changes, seen);
  }
  for (; seen.counted < changes.length; seen.counted += 1) {
    const change = changes[seen.counted] as PlannedChange;
    seen.ids.add(change.change.id);
    seen.last = change;
  }
  const present = seen.ids;
  return ids.filter((id) => present.has(id));
}

/** Converts an unknown read-back value to JSON for a before/after record. */
export function toJson(value: unknown): Json {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === "object") {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toJson(v);
    return out;
  }
  return String(value);
}

/** A record's descriptor fields in policy vocabulary, for a change's `before`/`after`: absent ones `null`. */
export function fieldsView(fields: readonly FieldDescriptor[], record: object): { [key: string]: Json } {
  const entries: [string, Json][] = [];
  for (const field of fields) {
    // The record's own enumerable fields only (what a copy of it holds), never one inherited; read
    // field by field rather than copying the record: the diff asks this of every resource.
    const own = Object.prototype.propertyIsEnumerable.call(record, field.modelKey);
    entries.push([field.policyKey, toJson(own ? (record as Readonly<Record<string, unknown>>)[field.modelKey] : undefined)]);
  }
  return Object.fromEntries(entries);
}

/** Whether the planned update of `address` changes `field` (e.g. a trigger moving to another function). */
export function movesAway(sink: DiffSink, address: string, field: string): boolean {
  const update = sink.changes.find((c) => c.change.id === changeId("update", address));
  return update?.change.fields.includes(field) === true;
}
