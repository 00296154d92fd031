/** Schemas of `buckets` (policy.md §7). */
import * as z from "zod";
import { bucketNameIssue } from "../../rules/names.js";
import { nameKey, recordOf, strictObject } from "./common.js";

/** A bucket name: the API's rule (1–255 characters, no `/`, unsafe characters, `.` or `..`). */
const bucketNameSchema = nameKey("bucket", bucketNameIssue);

/** One `BucketDef` (strict). */
const bucketDefSchema = strictObject({ access: z.enum(["private", "public_read"]).optional() }, "{ access?: … }");

/** `buckets` (and `preview.buckets`): name → `BucketDef`. */
export const bucketsSchema = recordOf(bucketNameSchema, bucketDefSchema, "an object of bucket name → bucket definition");
