/** The policy's `buckets`: the public type and its schema. */
import { nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { bucketNameIssue } from "../../rules/names.js";
import { BUCKET_FIELDS } from "./fields.js";

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
