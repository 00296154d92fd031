/** The read-replica kind's stages: its read, diff and prune, handlers and replica seed. */
import type { ApiEndpoint } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import { endpointSettingsOf } from "../compute/wire.js";
import type { KindStages } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyReadReplicaCreate, applyReadReplicaDelete, applyReadReplicaUpdate } from "./apply.js";
import { diffReadReplicas, pruneReadReplicas } from "./diff.js";
import { type LiveReadReplica, READ_REPLICA_SETTINGS, type ReadReplicaValues } from "./fields.js";

/** The branch's read-only endpoints, by name then id (the endpoint schema requires the three settings, which the descriptor's model rules accept). */
export function normalizeReadReplicas(endpoints: readonly ApiEndpoint[]): LiveReadReplica[] {
  return endpoints
    .filter((e) => e.type === "read_only")
    .map((e) => ({ endpointId: e.id, ...(e.name === undefined ? {} : { name: e.name }), ...(fromWire(READ_REPLICA_SETTINGS, e) as ReadReplicaValues) }))
    .sort((a, b) => compareCodePoints(a.name ?? "", b.name ?? "") || compareCodePoints(a.endpointId, b.endpointId));
}

/** The kind's stages (its facts and light module are in `index.ts`). */
export const readReplicaStages: KindStages<"readReplica"> = {
  // No source of its own (wave 1 listed the endpoints); nothing when the branch has no read-only
  // endpoint, so plans of branches without any hash the state as before.
  read: {
    slice: (_records, base) => {
      const replicas = normalizeReadReplicas(base.endpoints);
      return replicas.length === 0 ? {} : { kinds: { readReplica: replicas } };
    },
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
