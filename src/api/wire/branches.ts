/** Wire shapes of branches. */
import { z } from "zod";
import { NextPaginationSchema, OperationSchema, StringMapSchema, TimestampSchema, queryIntegerSchema, QueryBooleanSchema } from "./common.js";
import { EndpointOptionsSchema, EndpointSchema } from "./endpoints.js";
import { ConnectionUriEntrySchema, DatabaseSchema, RoleSchema } from "./roles-databases.js";

/** Branch names: 1–256 characters without control characters (our choice). */
export const BranchNameSchema = z.string().min(1).max(256).regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters");

/** `POST …/branches` body: every field optional, the body too. */
export const BranchCreateRequestSchema = z.object({
  branch: z
    .object({
      parent_id: z.string().min(1).optional(),
      name: BranchNameSchema.optional(),
      parent_lsn: z.string().optional(),
      parent_timestamp: TimestampSchema.optional(),
      protected: z.boolean().optional(),
      archived: z.boolean().optional(),
      init_source: z.enum(["parent-data", "parent-schema", "schema-only", "import"]).optional(),
      expires_at: TimestampSchema.optional(),
    })
    .optional(),
  endpoints: z.array(EndpointOptionsSchema).optional(),
  annotation_value: StringMapSchema.refine((m) => Object.keys(m).length <= 50, "at most 50 entries").optional(),
});
/** `POST …/branches` body. */
export type BranchCreateRequest = z.infer<typeof BranchCreateRequestSchema>;

/** `PATCH …/branches/{b}` body; `expires_at: null` clears the expiry. */
export const BranchUpdateRequestSchema = z.object({
  branch: z.object({
    name: BranchNameSchema.optional(),
    protected: z.boolean().optional(),
    expires_at: TimestampSchema.nullable().optional(),
  }),
});
/** `PATCH …/branches/{b}` body. */
export type BranchUpdateRequest = z.infer<typeof BranchUpdateRequestSchema>;

/** `GET …/branches` query. */
export const BranchListQuerySchema = z.object({
  search: z.string().optional(),
  sort_by: z.enum(["name", "created_at", "updated_at"]).optional(),
  sort_order: z.enum(["asc", "desc"]).optional(),
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 10000).optional(),
  include_deleted: QueryBooleanSchema.optional(),
});
/** `GET …/branches` query. */
export type BranchListQuery = z.infer<typeof BranchListQuerySchema>;

/** `GET …/branches/count` query. */
export const BranchCountQuerySchema = z.object({ search: z.string().optional() });

/** The branch record (the client's reading of it is in `../response-schemas.ts`). */
export const BranchSchema = z.looseObject({
  id: z.string(),
  project_id: z.string().optional(),
  name: z.string(),
  parent_id: z.string().optional(),
  parent_lsn: z.string().optional(),
  parent_timestamp: TimestampSchema.optional(),
  current_state: z.string().optional(),
  pending_state: z.string().optional(),
  state_changed_at: TimestampSchema.optional(),
  default: z.boolean().optional(),
  primary: z.boolean().optional(),
  protected: z.boolean().optional(),
  creation_source: z.string().optional(),
  logical_size: z.number().optional(),
  cpu_used_sec: z.number().optional(),
  compute_time_seconds: z.number().optional(),
  active_time_seconds: z.number().optional(),
  written_data_bytes: z.number().optional(),
  data_transfer_bytes: z.number().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  expires_at: TimestampSchema.optional(),
  ttl_interval_seconds: z.number().optional(),
  last_reset_at: TimestampSchema.optional(),
  init_source: z.string().optional(),
});
/** The branch record. */
export type Branch = z.infer<typeof BranchSchema>;

/** A branch annotation: `{object: {type, id}, value: {k: v}}`. */
export const AnnotationSchema = z.looseObject({
  object: z.looseObject({ type: z.string().optional(), id: z.string().optional() }).optional(),
  value: z.record(z.string(), z.string()).optional(),
});
/** A branch annotation. */
export type Annotation = z.infer<typeof AnnotationSchema>;

/** `GET …/branches` response. */
export const BranchListResponseSchema = z.looseObject({
  branches: z.array(BranchSchema),
  annotations: z.record(z.string(), AnnotationSchema).optional(),
  pagination: NextPaginationSchema.optional(),
});
/** `GET …/branches` response. */
export type BranchListResponse = z.infer<typeof BranchListResponseSchema>;

/** `GET …/branches/count` response. */
export const BranchCountResponseSchema = z.looseObject({ count: z.number() });
/** `GET …/branches/count` response. */
export type BranchCountResponse = z.infer<typeof BranchCountResponseSchema>;

/** `GET …/branches/{b}` response. */
export const BranchResponseSchema = z.looseObject({ branch: BranchSchema, annotation: AnnotationSchema.optional() });
/** `GET …/branches/{b}` response. */
export type BranchResponse = z.infer<typeof BranchResponseSchema>;

/** `{branch, operations}`: PATCH, DELETE and set_as_default responses. */
export const BranchOperationsResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
/** `{branch, operations}` response. */
export type BranchOperationsResponse = z.infer<typeof BranchOperationsResponseSchema>;

/** `POST …/branches` 201 response. */
export const BranchCreateResponseSchema = z.looseObject({
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  operations: z.array(OperationSchema).default([]),
  roles: z.array(RoleSchema).default([]),
  databases: z.array(DatabaseSchema).default([]),
  connection_uris: z.array(ConnectionUriEntrySchema).optional(),
});
/** `POST …/branches` 201 response. */
export type BranchCreateResponse = z.infer<typeof BranchCreateResponseSchema>;
