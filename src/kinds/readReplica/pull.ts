/** What a pull writes of the branch's read replicas. */
import type { ApiEndpoint, ApiProject } from "../../api/wire-types.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import { pulledFields } from "../../inspect/pulled-fields.js";
import { defaultComputeOf } from "../compute/read.js";
import { READ_REPLICA_SETTINGS, readReplicaNameIssue } from "./fields.js";
import type { ReadReplicaDef, ReadReplicasDef } from "./policy.js";

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

/** The read replicas' keys of a pulled branch's tuning. */
export const readReplicaPull = { tuning: (records) => pulledReadReplicas(records.endpoints, records.project) } as const satisfies KindPull;
