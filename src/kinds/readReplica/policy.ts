/** The branch closure's `readReplicas`: the public types, the schema and what it resolves to. */
import * as z from "zod";
import { kindTuning } from "../../config/schemas/branch-tuning.js";
import { check, nameKey, recordOf } from "../../config/schemas/common.js";
import { fromPolicy } from "../../model/kinds/field.js";
import { type ComputeSettings, computeSettingsSchema } from "../compute/policy.js";
import { type DesiredReadReplicas, MAX_READ_REPLICA_COUNT, READ_REPLICA_SETTINGS, countedReplicaName, readReplicaNameIssue } from "./fields.js";

/** One read replica's settings: its own autoscaling range and suspend timeout, the compute settings' rules (docs/policy.md#read-replicas). */
export type ReadReplicaDef = ComputeSettings;

/**
 * The branch's read replicas (docs/policy.md#read-replicas): a count (`replica-1` … `replica-n`,
 * the project's default settings), or replica name → its settings, `false` to remove it.
 */
export type ReadReplicasDef = number | Record<string, ReadReplicaDef | false>;

const countSchema = check(
  z.number(),
  (n) => Number.isInteger(n) && n >= 0 && n <= MAX_READ_REPLICA_COUNT,
  (n) => `must be a whole number of replicas from 0 to ${MAX_READ_REPLICA_COUNT} (got ${n})`,
);

const namedSchema = recordOf(
  nameKey("read replica", readReplicaNameIssue),
  z.union([
    check(z.boolean(), (v) => !v, () => "must be the replica's settings ({} for the project's defaults), or false to remove it"),
    computeSettingsSchema,
  ]),
  "a count of replicas or an object of replica name → settings",
);

/** `readReplicas` of the branch closure's result. */
export const readReplicasSchema = z.union([countSchema, namedSchema], {
  error: (issue) => (issue.code === "invalid_union" ? `must be a count of replicas (0 to ${MAX_READ_REPLICA_COUNT}) or an object of replica name → settings` : undefined),
});

/** What the validated `readReplicas` declares, names sorted. */
export function resolveReadReplicas(parsed: z.output<typeof readReplicasSchema>): DesiredReadReplicas {
  if (typeof parsed === "number") {
    const replicas = Array.from({ length: parsed }, (_, i) => ({ name: countedReplicaName(i + 1), settings: {} }));
    return { replicas: replicas.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), removed: [], count: parsed };
  }
  const names = Object.keys(parsed).sort();
  return {
    replicas: names.flatMap((name) => {
      const settings = parsed[name];
      return typeof settings === "object" ? [{ name, settings: fromPolicy(READ_REPLICA_SETTINGS, settings) }] : [];
    }),
    removed: names.filter((name) => parsed[name] === false),
  };
}

/** The kind's key of the branch tuning, `readReplicas`, and the slice of the resolved policy it declares. */
export const readReplicaTuning = kindTuning({ readReplicas: readReplicasSchema.optional() }, (values) =>
  values.readReplicas === undefined ? {} : { kinds: { readReplica: resolveReadReplicas(values.readReplicas) } },
);
