/** Schemas of `buckets`. */
import { BUCKET_FIELDS } from "../../model/kinds/bucket.js";
import { bucketNameIssue } from "../../rules/names.js";
import { nameKey, recordOf, strictObject } from "./common.js";
import { fieldsShape } from "./fields.js";

/** A bucket name: the API's rule (1–255 characters, no `/`, unsafe characters, `.` or `..`). */
const bucketNameSchema = nameKey("bucket", bucketNameIssue);

/** One `BucketDef` (strict), from the bucket descriptor. */
const bucketDefSchema = strictObject(fieldsShape(BUCKET_FIELDS), "{ access?: … }");

/** `buckets` (and `preview.buckets`): name → `BucketDef`. */
export const bucketsSchema = recordOf(bucketNameSchema, bucketDefSchema, "an object of bucket name → bucket definition");
