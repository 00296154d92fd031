/**
 * The read-replica resource kind (docs/policy.md#read-replicas): the read-only compute endpoints
 * of a branch, `readReplicas` in the branch closure's result. A replica's settings are the compute
 * kind's (its own autoscaling range and suspend timeout, under the same pair rule): this kind
 * declares a dependency on compute and reads its descriptor and rule, it has no copy of them.
 *
 * Identity: a replica is the read-only endpoint whose `name` is the replica's name; its plan
 * address is `readReplica.<name>`. A count `n` declares `replica-1` … `replica-n` and declares
 * away every live `replica-<k>` with k > n; a named declaration declares away the names mapped
 * to `false`. A read-only endpoint the policy neither declares nor declares away is unmanaged:
 * reported, never changed. Plain data and pure rules.
 */
import { COMPUTE_PAIR_RULE, COMPUTE_SETTINGS, type ComputeValues, computePairProblem } from "../compute/fields.js";

export { COMPUTE_PAIR_RULE, computePairProblem };

/** A replica's settings: the compute descriptor (min and max CU, suspend timeout), in its order. */
export const READ_REPLICA_SETTINGS = COMPUTE_SETTINGS;

/** A replica's settings in model vocabulary (CU, seconds). */
export type ReadReplicaValues = ComputeValues;

/** The largest count a policy may declare (our limit: a larger one is taken for a mistake). */
export const MAX_READ_REPLICA_COUNT = 100;

/** The prefix of the names a count declares: `replica-1`, `replica-2`, … */
const COUNTED = /^replica-([1-9][0-9]{0,2})$/;

/** The name of the `index`-th replica (from 1) a count declares. */
export function countedReplicaName(index: number): string {
  return `replica-${index}`;
}

/** The index of a name a count declares (`replica-3` → 3), or `undefined` for any other name. */
export function countedReplicaIndex(name: string): number | undefined {
  const match = COUNTED.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The longest replica name: a PostgreSQL-style identifier length, short enough for any view. */
const MAX_NAME_LENGTH = 63;

/**
 * What is wrong with a replica name (a phrase after "it"), or `null`: 1–63 lowercase letters,
 * digits and hyphens, starting with a letter and not ending with a hyphen, and not starting with
 * `ep-`, which endpoint ids use (an unnamed read-only endpoint is reported at its id). The
 * alphabet leaves out every control, zero-width, bidi and look-alike character, and `__proto__`.
 */
export function readReplicaNameIssue(name: string): string | null {
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) return `must be 1 to ${MAX_NAME_LENGTH} characters long`;
  if (!/^[a-z](?:[a-z0-9-]*[a-z0-9])?$/.test(name)) return "must be lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen";
  return name.startsWith("ep-") ? 'must not start with "ep-", which endpoint ids use' : null;
}

/** One declared replica: its name and the settings the policy states (the others are the platform's, never compared). */
export interface DeclaredReadReplica {
  name: string;
  settings: Partial<ReadReplicaValues>;
}

/** The read replicas a policy declares for the branch. */
export interface DesiredReadReplicas {
  /** The declared replicas, sorted by name. */
  replicas: DeclaredReadReplica[];
  /** The names declared away (`name: false`), sorted: deleted when live. */
  removed: string[];
  /** Set when declared as a count: every live `replica-<k>` with k above it is declared away too. */
  count?: number;
}

/** A read-only endpoint of the branch, as the diff reads it. */
export interface LiveReadReplica extends ReadReplicaValues {
  endpointId: string;
  /** The endpoint's name; absent when the platform reports none. */
  name?: string;
}

/** Whether the policy declares the replica `name` away. */
export function isDeclaredAway(desired: DesiredReadReplicas, name: string): boolean {
  if (desired.removed.includes(name)) return true;
  const index = countedReplicaIndex(name);
  return desired.count !== undefined && index !== undefined && index > desired.count;
}

/** The operations on the replica `op.name`: `planned`, the settings it is created with or changed to (in model vocabulary). */
export interface ReadReplicaOperations {
  "read-replica-create": { op: { name: string }; planned: Partial<ReadReplicaValues> };
  "read-replica-update": { op: { name: string; endpointId: string }; planned: Partial<ReadReplicaValues> };
  "read-replica-delete": { op: { name: string; endpointId: string }; planned: Record<never, never> };
}
