/** Schemas of `buckets` (policy.md §7). */
import * as z from "zod";
import { nameKey, recordOf, strictObject } from "./common.js";

/** A bucket name: 1–255 characters, no `/` or control characters (the API's rule). */
const bucketNameSchema = nameKey("bucket", 255, { pattern: /\//, rule: '"/"' });

/** One `BucketDef` (strict). */
const bucketDefSchema = strictObject({ access: z.enum(["private", "public_read"]).optional() }, "{ access?: … }");

/** `buckets` (and `preview.buckets`): name → `BucketDef`. */
export const bucketsSchema = recordOf(bucketNameSchema, bucketDefSchema, "an object of bucket name → bucket definition");
