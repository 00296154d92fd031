/**
 * The bucket resource kind (docs/policy.md#buckets): the one place that names a bucket's fields
 * in policy, model and wire vocabulary. The policy schema, the public type's compile-time check,
 * the inspector, the diff, the handler's request body and the pull all read it. Plain data.
 */
import type { ModelValues } from "../../model/kinds/field.js";

/**
 * A bucket's fields. `access` is set when the bucket is created and never changes in place (a
 * different access is the `BUCKET_ACCESS_IMMUTABLE` conflict; only deleting the bucket, with its
 * objects, changes it: destructive). The platform may report a level the policy cannot write,
 * so the model holds any text and the policy one of the two levels.
 */
export const BUCKET_FIELDS = [
  {
    policyKey: "access",
    modelKey: "access",
    wireKey: "access_level",
    rule: { type: "string" },
    policyRule: { type: "enum", values: ["private", "public_read"] },
    compare: "exact",
    changeClass: "destructive",
    pulled: true,
  },
] as const;

/** A bucket's fields in model (= policy) vocabulary. */
export type BucketValues = ModelValues<typeof BUCKET_FIELDS>;

/** What an omitted field resolves to. */
export const BUCKET_DEFAULTS = { access: "private" } as const satisfies BucketValues;

/** The operations on bucket `op.name`: `planned`, the fields it is created with. */
export interface BucketOperations {
  "bucket-create": { op: { name: string }; planned: BucketValues };
  "bucket-delete": { op: { name: string }; planned: Record<never, never> };
}

/** A bucket as read: its name and the fields its descriptor reads (a value breaking its rule is absent). */
export type LiveBucket = { name: string } & Partial<BucketValues>;

/** The bucket kind's fields of the live state (`LiveState`). */
export interface BucketLiveFields {
  buckets?: LiveBucket[];
  /** Whether each bucket holds objects; read only for buckets the plan would delete. */
  bucketHasObjects?: ReadonlyMap<string, boolean>;
}

/** The buckets' field of the resolved policy. */
export interface BucketResolvedFields {
  /** Declared buckets, sorted by name, `access` resolved. */
  buckets: { name: string; access: "private" | "public_read" }[];
}
