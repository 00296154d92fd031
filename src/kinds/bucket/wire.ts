/** Wire shapes of buckets: the name rule, the create body, the record, and a live bucket as its record. */
import { z } from "zod";
import { TimestampSchema } from "../../api/wire/common.js";
import { toWire } from "../../model/kinds/field.js";
import { bucketNameIssue } from "../../rules/names.js";
import { BUCKET_FIELDS, type BucketValues } from "./fields.js";

/**
 * Bucket names: 1–255 characters, no `/`, control, zero-width or bidi characters, never `.` or
 * `..` (our choice; the shared rule of `rules/names.ts`, which the policy applies too).
 */
export const BucketNameSchema = z.string().superRefine((name, ctx) => {
  const issue = bucketNameIssue(name);
  if (issue !== null) ctx.addIssue({ code: "custom", message: issue });
});

/** `POST …/buckets` body; an unknown `access_level` is kept as is. */
export const BucketCreateRequestSchema = z.object({ name: BucketNameSchema, access_level: z.string().min(1).optional() });
/** `POST …/buckets` body. */
export type BucketCreateRequest = z.infer<typeof BucketCreateRequestSchema>;

/** The bucket record. */
export const BucketSchema = z.looseObject({
  name: z.string(),
  access_level: z.string().optional(),
  created_at: TimestampSchema.optional(),
});
/** The bucket record. */
export type Bucket = z.infer<typeof BucketSchema>;

/** `GET …/buckets` response (ancestors' buckets included). */
export const BucketListResponseSchema = z.looseObject({ buckets: z.array(BucketSchema) });
/** `GET …/buckets` response. */
export type BucketListResponse = z.infer<typeof BucketListResponseSchema>;

/** `POST …/buckets` 201 response. */
export const BucketResponseSchema = z.looseObject({ bucket: BucketSchema });
/** `{bucket}` response. */
export type BucketResponse = z.infer<typeof BucketResponseSchema>;

/** The record of a bucket of the live state (what a replica of the branch is seeded with). */
export function bucketRecordOf(bucket: { name: string } & Partial<BucketValues>): { name: string; access_level?: string } {
  return { name: bucket.name, ...toWire(BUCKET_FIELDS, bucket) };
}
