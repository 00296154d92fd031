/** The read-replica kind as the registry holds it: its policy key, read, diff and prune, handlers, pull and replica seed. */
import type { ApiEndpoint, ApiProject } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { pulledFields } from "../../inspect/pulled-fields.js";
import { fromWire } from "../../model/kinds/field.js";
import { defaultComputeOf } from "../compute/read.js";
import { endpointSettingsOf } from "../compute/wire.js";
import type { KindModule } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyReadReplicaCreate, applyReadReplicaDelete, applyReadReplicaUpdate } from "./apply.js";
import { diffReadReplicas, pruneReadReplicas } from "./diff.js";
import { type DesiredReadReplicas, type LiveReadReplica, READ_REPLICA_SETTINGS, type ReadReplicaOperations, type ReadReplicaValues, readReplicaNameIssue } from "./fields.js";
import { type ReadReplicaDef, type ReadReplicasDef, readReplicaTuning } from "./policy.js";

/** The branch's read-only endpoints, by name then id (the endpoint schema requires the three settings, which the descriptor's model rules accept). */
export function normalizeReadReplicas(endpoints: readonly ApiEndpoint[]): LiveReadReplica[] {
  return endpoints
    .filter((e) => e.type === "read_only")
    .map((e) => ({ endpointId: e.id, ...(e.name === undefined ? {} : { name: e.name }), ...(fromWire(READ_REPLICA_SETTINGS, e) as ReadReplicaValues) }))
    .sort((a, b) => compareCodePoints(a.name ?? "", b.name ?? "") || compareCodePoints(a.endpointId, b.endpointId));
}

/**
 * `readReplicas` as a pull declares it: each read-only endpoint whose name a policy can declare
 * (and no other endpoint carries) with the settings that differ from the project's defaults, in
 * their policy form; none when there is no such endpoint. The others stay undeclared (a plan of the
 * pulled file lists them as unmanaged).
 */
function pulledReadReplicas(endpoints: readonly ApiEndpoint[], project: ApiProject): { readReplicas?: ReadReplicasDef } {
  const readOnly = endpoints.filter((e) => e.type === "read_only");
  const declarable = readOnly.filter((e) => e.name !== undefined && readReplicaNameIssue(e.name) === null && readOnly.filter((o) => o.name === e.name).length === 1);
  if (declarable.length === 0) return {};
  const defaults = defaultComputeOf(project);
  // The values follow the descriptor's policy rules; `defineConfig` validates the whole pull.
  return { readReplicas: Object.fromEntries(declarable.map((e) => [e.name, pulledFields(READ_REPLICA_SETTINGS, e, defaults) as ReadReplicaDef])) };
}

/** Read replicas (`readReplicas` of the branch closure): read-only compute endpoints by name. */
export const readReplicaKind: KindModule<"readReplica"> = {
  name: "readReplica",
  scope: "named",
  tuning: readReplicaTuning,
  pull: { tuning: (records) => pulledReadReplicas(records.endpoints, records.project) },
  // Nothing when the branch has no read-only endpoint, so plans of branches without any hash the state as before.
  read: async ({ base }) => {
    const replicas = normalizeReadReplicas(base.endpoints);
    return replicas.length === 0 ? {} : { readReplica: replicas };
  },
  diff: (desired, live, _options, sink) => {
    const want = desired.kinds?.readReplica;
    if (want !== undefined) diffReadReplicas(want, live.kinds?.readReplica ?? [], live.project.defaultCompute, sink);
  },
  prune: (desired, live, _options, sink) => {
    const want = desired.kinds?.readReplica;
    if (want !== undefined) pruneReadReplicas(want, live.kinds?.readReplica ?? [], sink);
  },
  handlers: {
    "read-replica-create": applyReadReplicaCreate,
    "read-replica-update": applyReadReplicaUpdate,
    "read-replica-delete": (ctx, change, op) => applyReadReplicaDelete(ctx, change, op),
  },
  expectedWaits: { "read-replica-create": () => OPERATION_WAIT_MS, "read-replica-update": () => OPERATION_WAIT_MS, "read-replica-delete": () => OPERATION_WAIT_MS },
  digests: { "read-replica-create": (planned) => planned, "read-replica-update": (planned) => planned },
  seed: (live) => ({
    branch: { endpoints: (live.kinds?.readReplica ?? []).map((r) => ({ id: r.endpointId, ...(r.name === undefined ? {} : { name: r.name }), type: "read_only" as const, ...endpointSettingsOf(r) })) },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's read replicas. */
    readReplica: { scope: "named"; operations: ReadReplicaOperations; desired: DesiredReadReplicas; live: LiveReadReplica[]; tuning: { readReplicas?: ReadReplicasDef } };
  }
}
