/**
 * The read replicas' pure diff: each declared replica against the read-only endpoint of its name
 * (create, resize, or a conflict), then the live read-only endpoints the policy does not declare
 * (deleted when declared away, else unmanaged). Runs only when the policy declares `readReplicas`.
 */
import { makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import type { Json } from "../../model/json.js";
import type { OperationChange } from "../../model/planned-change.js";
import { planKeyOf, sameFieldValue, strongestClass } from "../../model/kinds/field.js";
import {
  COMPUTE_PAIR_RULE,
  type DeclaredReadReplica,
  type DesiredReadReplicas,
  type LiveReadReplica,
  READ_REPLICA_SETTINGS,
  type ReadReplicaValues,
  computePairProblem,
  isDeclaredAway,
  readReplicaNameIssue,
} from "./fields.js";

/** The plan address of the replica `name`. */
export function readReplicaAddress(name: string): string {
  return `readReplica.${name}`;
}

/** A replica's settings by plan key (those `values` holds): a change's `before`/`after`. */
function settingsView(values: Partial<ReadReplicaValues>): { [key: string]: Json } {
  return Object.fromEntries(READ_REPLICA_SETTINGS.filter((field) => values[field.modelKey] !== undefined).map((field) => [planKeyOf(field), values[field.modelKey] ?? null]));
}

/** The live read-only endpoints by name (unnamed ones left out). */
function byName(live: readonly LiveReadReplica[]): Map<string, LiveReadReplica[]> {
  const named = new Map<string, LiveReadReplica[]>();
  for (const replica of live) {
    if (replica.name !== undefined) named.set(replica.name, [...(named.get(replica.name) ?? []), replica]);
  }
  return named;
}

/**
 * Diffs the declared replicas: `create:readReplica.<name>` (additive) for an absent one,
 * `update:readReplica.<name>` (override) for declared settings that differ; conflicts
 * `READ_REPLICA_NAME_AMBIGUOUS` (several read-only endpoints carry the name) and
 * `COMPUTE_PAIR_INVALID` (one bound declared, the other, live or the project's default, breaks
 * the pair rule with it). `defaults`: the project's default compute settings.
 */
export function diffReadReplicas(want: DesiredReadReplicas, live: readonly LiveReadReplica[], defaults: Partial<ReadReplicaValues>, sink: DiffSink): void {
  const named = byName(live);
  for (const replica of want.replicas) {
    const matches = named.get(replica.name) ?? [];
    const [current] = matches;
    if (matches.length > 1) sink.conflicts.push(ambiguous(replica.name, matches));
    else if (pairConflict(replica, current ?? defaults, sink)) continue;
    else if (current === undefined) sink.changes.push(createChange(replica));
    else updateChange(replica, current, sink);
  }
}

/**
 * The live read-only endpoints the policy does not declare: `delete:readReplica.<name>`
 * (override) when declared away, else unmanaged (at `readReplica.<name>`, or at the endpoint id
 * when it has no name a policy could declare).
 */
export function pruneReadReplicas(want: DesiredReadReplicas, live: readonly LiveReadReplica[], sink: DiffSink): void {
  const declared = new Set(want.replicas.map((r) => r.name));
  const named = byName(live);
  for (const replica of live) {
    const name = replica.name;
    if (name !== undefined && declared.has(name)) continue;
    if (name !== undefined && isDeclaredAway(want, name)) {
      const matches = named.get(name) ?? [];
      if (matches.length > 1) {
        if (matches[0] === replica) sink.conflicts.push(ambiguous(name, matches));
        continue;
      }
      sink.changes.push(
        makeChange({
          address: readReplicaAddress(name), kind: "readReplica", action: "delete", class: "override", fields: ["*"],
          before: settingsView(replica), after: null,
          reason: `read replica ${name} (endpoint ${replica.endpointId}) is declared away (${want.count === undefined ? `${name}: false` : `readReplicas: ${want.count}`})`,
          op: { type: "read-replica-delete", name, endpointId: replica.endpointId },
          planned: {},
        }),
      );
      continue;
    }
    const declarable = name !== undefined && readReplicaNameIssue(name) === null;
    sink.unmanaged.push({
      address: readReplicaAddress(declarable ? name : replica.endpointId),
      kind: "readReplica",
      identifier: declarable ? name : replica.endpointId,
      reason: declarable
        ? `read replica ${name} (endpoint ${replica.endpointId}) is not declared (declare it under readReplicas to manage it, or ${name}: false to delete it)`
        : `read-only endpoint ${replica.endpointId} has ${name === undefined ? "no name" : "a name a policy cannot declare"}; rename it on the platform to manage it`,
    });
  }
}

function ambiguous(name: string, matches: readonly LiveReadReplica[]): DiffSink["conflicts"][number] {
  const ids = matches.map((m) => m.endpointId);
  return {
    kind: "readReplica", identifier: name, field: "name", current: ids, desired: name, blocking: true, code: "READ_REPLICA_NAME_AMBIGUOUS",
    reason: `${ids.length} read-only endpoints are named ${name} (${ids.join(", ")}); rename or delete all but one on the platform, then plan again`,
  };
}

/** Reports `COMPUTE_PAIR_INVALID` when one bound is declared and the other (`other`'s) breaks the pair rule with it. */
function pairConflict(replica: DeclaredReadReplica, other: Partial<ReadReplicaValues>, sink: DiffSink): boolean {
  const { minCu, maxCu } = replica.settings;
  if ((minCu === undefined) === (maxCu === undefined)) return false;
  const min = minCu ?? other.minCu;
  const max = maxCu ?? other.maxCu;
  if (min === undefined || max === undefined || computePairProblem(min, max) === undefined) return false;
  const field = minCu === undefined ? "autoscalingLimitMaxCu" : "autoscalingLimitMinCu";
  sink.conflicts.push({
    kind: "readReplica", identifier: replica.name, field, blocking: true, code: "COMPUTE_PAIR_INVALID",
    current: { autoscalingLimitMinCu: other.minCu ?? null, autoscalingLimitMaxCu: other.maxCu ?? null },
    desired: { autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max },
    reason: `read replica ${replica.name}: the declared ${field} with the other bound gives ${min}–${max} CU, which the platform rejects (${COMPUTE_PAIR_RULE}); declare both bounds`,
  });
  return true;
}

function createChange(replica: DeclaredReadReplica): OperationChange<"read-replica-create"> {
  return makeChange({
    address: readReplicaAddress(replica.name), kind: "readReplica", action: "create", class: "additive", fields: ["*"],
    before: null, after: settingsView(replica.settings),
    reason: `read replica ${replica.name} is declared and absent on the branch`,
    op: { type: "read-replica-create", name: replica.name },
    planned: replica.settings,
  });
}

function updateChange(replica: DeclaredReadReplica, current: LiveReadReplica, sink: DiffSink): void {
  const want = replica.settings;
  const changed = READ_REPLICA_SETTINGS.filter((field) => want[field.modelKey] !== undefined && !sameFieldValue(field, want[field.modelKey], current[field.modelKey]));
  if (changed.length === 0) return;
  const before = settingsView(current);
  const after = settingsView({ ...current, ...want });
  const fields = changed.map(planKeyOf);
  const planned: Partial<ReadReplicaValues> = {};
  for (const field of changed) planned[field.modelKey] = want[field.modelKey];
  sink.changes.push(
    makeChange({
      address: readReplicaAddress(replica.name), kind: "readReplica", action: "update", class: strongestClass(changed), fields,
      before, after,
      reason: `the policy sets ${fields.join(", ")} of read replica ${replica.name} (endpoint ${current.endpointId})`,
      op: { type: "read-replica-update", name: replica.name, endpointId: current.endpointId },
      planned,
    }),
  );
}
