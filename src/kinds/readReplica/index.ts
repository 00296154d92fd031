/** The read-replica kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { DesiredReadReplicas, LiveReadReplica, ReadReplicaOperations } from "./fields.js";
import type { KindLight } from "../module.js";
import { type ReadReplicasDef, readReplicaTuning } from "./policy.js";
import { readReplicaPull } from "./pull.js";

/** Read replicas (`readReplicas` of the branch closure): read-only compute endpoints by name. */
export const readReplicaKind: KindLight<"readReplica"> = {
  name: "readReplica",
  scope: "named",
  tuning: readReplicaTuning,
  pull: readReplicaPull,
  stages: async () => (await import("./stages.js")).readReplicaStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's read replicas. */
    readReplica: { scope: "named"; operations: ReadReplicaOperations; desired: DesiredReadReplicas; live: LiveReadReplica[]; tuning: { readReplicas?: ReadReplicasDef } };
  }
}
