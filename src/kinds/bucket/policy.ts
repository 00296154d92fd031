/** The policy's `buckets`: the public types, the schema and the static policy stage. */
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import { sortedEntries } from "../../config/sort.js";
import { bucketNameIssue } from "../../rules/names.js";
import { BUCKET_DEFAULTS, BUCKET_FIELDS, type BucketResolvedFields } from "./fields.js";
import type { Assert, DescribedPolicyValues, KeysOf, Parsed, Same } from "../../config/schemas/type-match.js";

/** An object-storage bucket (docs/policy.md#buckets). */
export interface BucketDef {
  /** @default "private" */
  access?: "private" | "public_read";
}

/** A bucket name: the API's rule (1–255 characters, no `/`, unsafe characters, `.` or `..`). */
const bucketNameSchema = nameKey("bucket", bucketNameIssue);

/** One `BucketDef` (strict), from the bucket descriptor. */
const bucketDefSchema = strictObject(fieldsShape(BUCKET_FIELDS), "{ access?: … }");

/** `buckets` (and `preview.buckets`): name → `BucketDef`. */
export const bucketsSchema = recordOf(bucketNameSchema, bucketDefSchema, "an object of bucket name → bucket definition");

/** The bucket kind's top-level key of the policy. */
export interface BucketPolicyKeys {
  /** Keyed by bucket name. */
  buckets?: Record<string, BucketDef>;
}

/** The deprecated home of `buckets`. */
export interface BucketPreviewKeys {
  /** @deprecated use the top-level `buckets`. */
  buckets?: Record<string, BucketDef>;
}

/** The bucket kind's static policy: `buckets` (deprecated home `preview.buckets`), `prune.buckets`, its resolved buckets. */
export const bucketPolicy = kindPolicy({
  order: 50,
  keys: { buckets: bucketsSchema },
  preview: { buckets: 20 },
  prune: { flag: "buckets", order: 40 },
  resolve: ({ buckets }): BucketResolvedFields => ({
    buckets: sortedEntries(buckets ?? {}).map(([name, bucket]) => ({ name, access: bucket.access ?? BUCKET_DEFAULTS.access })),
  }),
});

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<KeysOf<BucketDef>, KeysOf<Parsed<typeof bucketsSchema>[string]>>>,
  Assert<Same<Required<BucketDef>, DescribedPolicyValues<typeof BUCKET_FIELDS>>>,
];
