/** Wire shapes of projects. */
import { z } from "zod";
import { ComputeUnitSchema, SuspendTimeoutSchema } from "../../kinds/compute/wire.js";
import { CursorPaginationSchema, OperationSchema, QueryBooleanSchema, StringMapSchema, TimestampSchema, queryIntegerSchema } from "./common.js";
import { BranchSchema } from "./branches.js";
import { EndpointSchema } from "./endpoints.js";
import { ConnectionUriEntrySchema, DatabaseSchema, RoleSchema } from "./roles-databases.js";

/** Default compute settings of later endpoints (request side). */
export const DefaultEndpointSettingsInputSchema = z.object({
  pg_settings: StringMapSchema.optional(),
  autoscaling_limit_min_cu: ComputeUnitSchema.optional(),
  autoscaling_limit_max_cu: ComputeUnitSchema.optional(),
  suspend_timeout_seconds: SuspendTimeoutSchema.optional(),
});
/** Default compute settings of later endpoints. */
export type DefaultEndpointSettingsInput = z.infer<typeof DefaultEndpointSettingsInputSchema>;

/** Project `settings` (stored and echoed; fields kept loosely typed). */
export const ProjectSettingsInputSchema = z.looseObject({
  allowed_ips: z.unknown().optional(),
  enable_logical_replication: z.boolean().optional(),
  maintenance_window: z.unknown().optional(),
  block_public_connections: z.boolean().optional(),
  block_vpc_connections: z.boolean().optional(),
  audit_log_level: z.string().optional(),
  hipaa: z.boolean().optional(),
  preload_libraries: z.unknown().optional(),
  quota: z.unknown().optional(),
});

/** `POST /projects` body: `{project: {...}}`, every field optional. */
export const ProjectCreateRequestSchema = z.object({
  project: z.object({
    name: z.string().min(1).max(256).optional(),
    region_id: z.string().min(1).optional(),
    pg_version: z.number().int().min(14).max(19).optional(),
    org_id: z.string().optional(),
    autoscaling_limit_min_cu: ComputeUnitSchema.optional(),
    autoscaling_limit_max_cu: ComputeUnitSchema.optional(),
    provisioner: z.string().optional(),
    store_passwords: z.boolean().optional(),
    history_retention_seconds: z.number().int().min(0).optional(),
    settings: ProjectSettingsInputSchema.optional(),
    default_endpoint_settings: DefaultEndpointSettingsInputSchema.optional(),
    branch: z
      .object({
        name: z.string().min(1).max(256).optional(),
        role_name: z.string().min(1).max(63).optional(),
        database_name: z.string().min(1).max(63).optional(),
      })
      .optional(),
  }),
});
/** `POST /projects` body. */
export type ProjectCreateRequest = z.infer<typeof ProjectCreateRequestSchema>;

/** `PATCH /projects/{p}` body: `{project: {...}}`, every field optional. */
export const ProjectUpdateRequestSchema = z.object({
  project: z.object({
    name: z.string().min(1).max(256).optional(),
    history_retention_seconds: z.number().int().min(0).optional(),
    settings: ProjectSettingsInputSchema.optional(),
    default_endpoint_settings: DefaultEndpointSettingsInputSchema.optional(),
  }),
});
/** `PATCH /projects/{p}` body. */
export type ProjectUpdateRequest = z.infer<typeof ProjectUpdateRequestSchema>;

/** `GET /projects` query. */
export const ProjectListQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 400).optional(),
  search: z.string().optional(),
  org_id: z.string().optional(),
  timeout: z.string().optional(),
  recoverable: QueryBooleanSchema.optional(),
});
/** `GET /projects` query. */
export type ProjectListQuery = z.infer<typeof ProjectListQuerySchema>;

/** `GET /projects/shared` query. */
export const SharedProjectListQuerySchema = ProjectListQuerySchema.pick({ cursor: true, limit: true, search: true, timeout: true });

/** The project record (the client's reading of it is in `../response-schemas.ts`). */
export const ProjectSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  region_id: z.string(),
  pg_version: z.number(),
  platform_id: z.string().optional(),
  provisioner: z.string().optional(),
  proxy_host: z.string().optional(),
  store_passwords: z.boolean().optional(),
  history_retention_seconds: z.number().optional(),
  branch_logical_size_limit: z.number().optional(),
  branch_logical_size_limit_bytes: z.number().optional(),
  creation_source: z.string().optional(),
  owner_id: z.string().optional(),
  owner: z
    .looseObject({
      name: z.string().optional(),
      email: z.string().optional(),
      branches_limit: z.number().optional(),
      subscription_type: z.string().optional(),
    })
    .optional(),
  org_id: z.string().optional(),
  default_endpoint_settings: z
    .looseObject({
      pg_settings: z.record(z.string(), z.string()).optional(),
      autoscaling_limit_min_cu: z.number().optional(),
      autoscaling_limit_max_cu: z.number().optional(),
      suspend_timeout_seconds: z.number().optional(),
    })
    .optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  cpu_used_sec: z.number().optional(),
  active_time: z.number().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  deleted_at: TimestampSchema.optional(),
  recoverable_until: TimestampSchema.optional(),
  org_name: z.string().optional(),
});
/** The project record. */
export type Project = z.infer<typeof ProjectSchema>;

/** `GET /projects` response. */
export const ProjectListResponseSchema = z.looseObject({
  projects: z.array(ProjectSchema),
  pagination: CursorPaginationSchema.optional(),
  applications: z.record(z.string(), z.array(z.string())).optional(),
  integrations: z.record(z.string(), z.array(z.string())).optional(),
  unavailable_project_ids: z.array(z.string()).optional(),
});
/** `GET /projects` response. */
export type ProjectListResponse = z.infer<typeof ProjectListResponseSchema>;

/** `GET /projects/shared` response. */
export const SharedProjectListResponseSchema = z.looseObject({
  projects: z.array(ProjectSchema),
  pagination: CursorPaginationSchema.optional(),
});
/** `GET /projects/shared` response. */
export type SharedProjectListResponse = z.infer<typeof SharedProjectListResponseSchema>;

/** `{project}`: GET, DELETE and recover responses. */
export const ProjectResponseSchema = z.looseObject({ project: ProjectSchema });
/** `{project}` response. */
export type ProjectResponse = z.infer<typeof ProjectResponseSchema>;

/** `PATCH /projects/{p}` response: `{project, operations}`. */
export const ProjectUpdateResponseSchema = z.looseObject({
  project: ProjectSchema,
  operations: z.array(OperationSchema).default([]),
});
/** `PATCH /projects/{p}` response. */
export type ProjectUpdateResponse = z.infer<typeof ProjectUpdateResponseSchema>;

/** `POST /projects` 201 response. */
export const ProjectCreateResponseSchema = z.looseObject({
  project: ProjectSchema,
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  roles: z.array(RoleSchema).default([]),
  databases: z.array(DatabaseSchema).default([]),
  operations: z.array(OperationSchema).default([]),
  connection_uris: z.array(ConnectionUriEntrySchema).default([]),
});
/** `POST /projects` 201 response. */
export type ProjectCreateResponse = z.infer<typeof ProjectCreateResponseSchema>;

/** `POST /projects/{project_id}/recover` body: none (servers also accept `{}`). */
export const ProjectRecoverRequestSchema = z.object({});
