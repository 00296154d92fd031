/** Wire shapes of compute endpoints. */
import { z } from "zod";
import { ComputeUnitSchema, SuspendTimeoutSchema } from "../../kinds/compute/wire.js";
import { OperationSchema, StringMapSchema, TimestampSchema } from "./common.js";

/** Endpoint `settings` on the request side. */
export const EndpointSettingsInputSchema = z.object({
  pg_settings: StringMapSchema.optional(),
  preload_libraries: z.unknown().optional(),
});

/** Compute options shared by branch-create endpoints and endpoint create. */
export const EndpointOptionsSchema = z.object({
  type: z.enum(["read_write", "read_only"]),
  autoscaling_limit_min_cu: ComputeUnitSchema.optional(),
  autoscaling_limit_max_cu: ComputeUnitSchema.optional(),
  suspend_timeout_seconds: SuspendTimeoutSchema.optional(),
  settings: EndpointSettingsInputSchema.optional(),
  provisioner: z.string().optional(),
});
/** Compute options of a new endpoint. */
export type EndpointOptions = z.infer<typeof EndpointOptionsSchema>;

/** `POST /projects/{p}/endpoints` body. */
export const EndpointCreateRequestSchema = z.object({
  endpoint: EndpointOptionsSchema.extend({
    branch_id: z.string().min(1),
    name: z.string().max(256).optional(),
    disabled: z.boolean().optional(),
    pooler_enabled: z.boolean().optional(),
    pooler_mode: z.string().optional(),
  }),
});
/** `POST /projects/{p}/endpoints` body. */
export type EndpointCreateRequest = z.infer<typeof EndpointCreateRequestSchema>;

/** `PATCH /projects/{p}/endpoints/{e}` body: every field optional; `type` is fixed. */
export const EndpointUpdateRequestSchema = z.object({
  endpoint: z.object({
    autoscaling_limit_min_cu: ComputeUnitSchema.optional(),
    autoscaling_limit_max_cu: ComputeUnitSchema.optional(),
    suspend_timeout_seconds: SuspendTimeoutSchema.optional(),
    settings: EndpointSettingsInputSchema.optional(),
    provisioner: z.string().optional(),
    name: z.string().max(256).optional(),
    disabled: z.boolean().optional(),
    pooler_enabled: z.boolean().optional(),
    pooler_mode: z.string().optional(),
    branch_id: z.string().optional(),
  }),
});
/** `PATCH /projects/{p}/endpoints/{e}` body. */
export type EndpointUpdateRequest = z.infer<typeof EndpointUpdateRequestSchema>;

/** The compute endpoint record. */
export const EndpointSchema = z.looseObject({
  id: z.string(),
  project_id: z.string().optional(),
  branch_id: z.string(),
  region_id: z.string().optional(),
  host: z.string().optional(),
  name: z.string().optional(),
  type: z.string(),
  current_state: z.string().optional(),
  pending_state: z.string().optional(),
  autoscaling_limit_min_cu: z.number(),
  autoscaling_limit_max_cu: z.number(),
  suspend_timeout_seconds: z.number(),
  settings: z.record(z.string(), z.unknown()).optional(),
  provisioner: z.string().optional(),
  creation_source: z.string().optional(),
  pooler_enabled: z.boolean().optional(),
  pooler_mode: z.string().optional(),
  disabled: z.boolean().optional(),
  passwordless_access: z.boolean().optional(),
  proxy_host: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  started_at: TimestampSchema.optional(),
  suspended_at: TimestampSchema.optional(),
  last_active: TimestampSchema.optional(),
});
/** The compute endpoint record. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** `{endpoints}`: project and branch endpoint lists. */
export const EndpointListResponseSchema = z.looseObject({ endpoints: z.array(EndpointSchema) });
/** `{endpoints}` response. */
export type EndpointListResponse = z.infer<typeof EndpointListResponseSchema>;

/** `{endpoint}`: GET response. */
export const EndpointResponseSchema = z.looseObject({ endpoint: EndpointSchema });
/** `{endpoint}` response. */
export type EndpointResponse = z.infer<typeof EndpointResponseSchema>;

/** `{endpoint, operations}`: create, PATCH, DELETE, start, suspend, restart responses. */
export const EndpointOperationsResponseSchema = z.looseObject({
  endpoint: EndpointSchema,
  operations: z.array(OperationSchema).default([]),
});
/** `{endpoint, operations}` response. */
export type EndpointOperationsResponse = z.infer<typeof EndpointOperationsResponseSchema>;
