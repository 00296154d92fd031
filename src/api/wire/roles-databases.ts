/** Wire shapes of roles, databases and connection URIs (a role's create request: `kinds/role/wire.ts`). */
import { z } from "zod";
import { OperationSchema, PgNameSchema, QueryBooleanSchema, TimestampSchema } from "./common.js";

/** The role record; `password` only on create and reset. */
export const RoleSchema = z.looseObject({
  branch_id: z.string().optional(),
  name: z.string(),
  password: z.string().optional(),
  protected: z.boolean().optional(),
  authentication_method: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
});
/** The role record. */
export type Role = z.infer<typeof RoleSchema>;

/** `{roles}` response. */
export const RoleListResponseSchema = z.looseObject({ roles: z.array(RoleSchema) });
/** `{roles}` response. */
export type RoleListResponse = z.infer<typeof RoleListResponseSchema>;
/** `{role}` response. */
export const RoleResponseSchema = z.looseObject({ role: RoleSchema });
/** `{role}` response. */
export type RoleResponse = z.infer<typeof RoleResponseSchema>;
/** `{role, operations}`: create, delete and reset_password responses. */
export const RoleOperationsResponseSchema = z.looseObject({ role: RoleSchema, operations: z.array(OperationSchema).default([]) });
/** `{role, operations}` response. */
export type RoleOperationsResponse = z.infer<typeof RoleOperationsResponseSchema>;
/** `{password}`: reveal_password response. */
export const RolePasswordResponseSchema = z.looseObject({ password: z.string() });
/** `{password}` response. */
export type RolePasswordResponse = z.infer<typeof RolePasswordResponseSchema>;

/** `POST …/databases` body. */
export const DatabaseCreateRequestSchema = z.object({ database: z.object({ name: PgNameSchema, owner_name: PgNameSchema }) });
/** `POST …/databases` body. */
export type DatabaseCreateRequest = z.infer<typeof DatabaseCreateRequestSchema>;
/** `PATCH …/databases/{db}` body. */
export const DatabaseUpdateRequestSchema = z.object({
  database: z.object({ name: PgNameSchema.optional(), owner_name: PgNameSchema.optional() }),
});
/** `PATCH …/databases/{db}` body. */
export type DatabaseUpdateRequest = z.infer<typeof DatabaseUpdateRequestSchema>;

/** The database record. */
export const DatabaseSchema = z.looseObject({
  id: z.number().optional(),
  branch_id: z.string().optional(),
  name: z.string(),
  owner_name: z.string(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
});
/** The database record. */
export type Database = z.infer<typeof DatabaseSchema>;

/** `{databases}` response. */
export const DatabaseListResponseSchema = z.looseObject({ databases: z.array(DatabaseSchema) });
/** `{databases}` response. */
export type DatabaseListResponse = z.infer<typeof DatabaseListResponseSchema>;
/** `{database}` response. */
export const DatabaseResponseSchema = z.looseObject({ database: DatabaseSchema });
/** `{database}` response. */
export type DatabaseResponse = z.infer<typeof DatabaseResponseSchema>;
/** `{database, operations}`: create, PATCH and DELETE responses. */
export const DatabaseOperationsResponseSchema = z.looseObject({
  database: DatabaseSchema,
  operations: z.array(OperationSchema).default([]),
});
/** `{database, operations}` response. */
export type DatabaseOperationsResponse = z.infer<typeof DatabaseOperationsResponseSchema>;

/** `GET /projects/{p}/connection_uri` query. */
export const ConnectionUriQuerySchema = z.object({
  database_name: z.string().min(1),
  role_name: z.string().min(1),
  branch_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  pooled: QueryBooleanSchema.optional(),
});
/** `GET /projects/{p}/connection_uri` query. */
export type ConnectionUriQuery = z.infer<typeof ConnectionUriQuerySchema>;

/** `{uri}` response (a secret: it embeds the role password). */
export const ConnectionUriResponseSchema = z.looseObject({ uri: z.string() });
/** `{uri}` response. */
export type ConnectionUriResponse = z.infer<typeof ConnectionUriResponseSchema>;

/** One `connection_uris` entry of a create response. */
export const ConnectionUriEntrySchema = z.looseObject({
  connection_uri: z.string(),
  connection_parameters: z
    .looseObject({
      database: z.string().optional(),
      password: z.string().optional(),
      role: z.string().optional(),
      host: z.string().optional(),
      pooler_host: z.string().optional(),
    })
    .optional(),
});
/** One `connection_uris` entry. */
export type ConnectionUriEntry = z.infer<typeof ConnectionUriEntrySchema>;
