/** Wire shapes of object storage: feature state, object listing (the bucket records: `kinds/bucket/wire.ts`). */
import { z } from "zod";
import { TimestampSchema, queryIntegerSchema } from "./common.js";

/** `GET …/storage` response. */
export const StorageStateResponseSchema = z.looseObject({
  enabled: z.boolean(),
  s3_endpoint: z.string().optional(),
  region: z.string().optional(),
  force_path_style: z.boolean().optional(),
});
/** `GET …/storage` response. */
export type StorageStateResponse = z.infer<typeof StorageStateResponseSchema>;

/** `GET …/buckets/{bucket}/objects` query. */
export const ObjectListQuerySchema = z.object({
  prefix: z.string().optional(),
  delimiter: z.string().optional(),
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 1000).optional(),
});
/** `GET …/objects` query. */
export type ObjectListQuery = z.infer<typeof ObjectListQuerySchema>;

/** The object record. */
export const StorageObjectSchema = z.looseObject({
  key: z.string(),
  size: z.number().optional(),
  last_modified: TimestampSchema.optional(),
  etag: z.string().optional(),
});
/** The object record. */
export type StorageObject = z.infer<typeof StorageObjectSchema>;

/** `GET …/objects` response: continue while `is_truncated`. */
export const ObjectListResponseSchema = z.looseObject({
  folders: z.array(z.string()).default([]),
  objects: z.array(StorageObjectSchema),
  prefix: z.string().optional(),
  next_cursor: z.string().optional(),
  is_truncated: z.boolean().default(false),
});
/** `GET …/objects` response. */
export type ObjectListResponse = z.infer<typeof ObjectListResponseSchema>;

/** `DELETE …/objects-by-prefix` response. */
export const ObjectDeleteByPrefixResponseSchema = z.looseObject({ deleted: z.number() });

/** `POST …/objects/{key}/presign` body. */
export const PresignRequestSchema = z.object({
  operation: z.enum(["upload", "download"]),
  content_type: z.string().optional(),
  expires_in_seconds: z.number().int().min(1).max(604800).optional(),
});
/** `POST …/presign` body. */
export type PresignRequest = z.infer<typeof PresignRequestSchema>;

/** `POST …/presign` response. */
export const PresignResponseSchema = z.looseObject({
  url: z.string(),
  method: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  expires_at: TimestampSchema.optional(),
});
/** `POST …/presign` response. */
export type PresignResponse = z.infer<typeof PresignResponseSchema>;

/** `DELETE …/buckets/{bucket}/objects-by-prefix` query: a non-empty prefix ending in `/`. */
export const ObjectDeleteByPrefixQuerySchema = z.object({
  prefix: z.string().min(1, "prefix is required and must not be empty").refine((p) => p.endsWith("/"), "prefix must end in /"),
});
