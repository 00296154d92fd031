/** Wire shapes of functions and deployments. */
import { z } from "zod";
import { NextPaginationSchema, TimestampSchema, queryIntegerSchema } from "./common.js";

/** Function slugs: `^[a-z0-9]{1,20}$`, immutable. */
export const FunctionSlugSchema = z.string().regex(/^[a-z0-9]{1,20}$/, "must match ^[a-z0-9]{1,20}$");

/** Environment variable names of a deployment. */
export const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must match ^[A-Za-z_][A-Za-z0-9_]*$");

/** The only runtime defined. */
export const FUNCTION_RUNTIMES = ["nodejs24"] as const;

/** The `runtime` part of a deployment upload. */
export const DeploymentRuntimeSchema = z.enum(FUNCTION_RUNTIMES);

/** The decoded `environment` part: a `{NAME: value}` string map; an empty value deletes the name. */
export const DeploymentEnvironmentSchema = z.record(EnvNameSchema, z.string());
/** The decoded `environment` part. */
export type DeploymentEnvironment = z.infer<typeof DeploymentEnvironmentSchema>;

/** Multipart part names of a deployment upload, in the order the client writes them. */
export const DEPLOYMENT_PART_NAMES = ["zip", "runtime", "environment"] as const;

/** `GET …/functions` query. */
export const FunctionListQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 1000).optional(),
});
/** `GET …/functions` query. */
export type FunctionListQuery = z.infer<typeof FunctionListQuerySchema>;

/** `PATCH …/functions/{slug}` body: `name` trimmed; `null` resets it to the slug. */
export const FunctionUpdateRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty or whitespace only")
    .max(256)
    .nullable(),
});
/** `PATCH …/functions/{slug}` body. */
export type FunctionUpdateRequest = z.infer<typeof FunctionUpdateRequestSchema>;

/** The deployment record; `environment` lists names only. */
export const DeploymentSchema = z.looseObject({
  id: z.number(),
  status: z.string(),
  memory_mib: z.number().optional(),
  runtime: z.string().optional(),
  created_at: TimestampSchema.optional(),
  environment: z.array(z.string()).optional(),
  error: z.string().optional(),
});
/** The deployment record. */
export type Deployment = z.infer<typeof DeploymentSchema>;

/** The function record. */
export const FunctionSchema = z.looseObject({
  id: z.string().optional(),
  slug: z.string(),
  name: z.string().optional(),
  created_at: TimestampSchema.optional(),
  invocation_url: z.string().optional(),
  current_deployment: DeploymentSchema.optional(),
  active_deployment: DeploymentSchema.optional(),
});
/** The function record. */
export type FunctionRecord = z.infer<typeof FunctionSchema>;

/** `GET …/functions` response. */
export const FunctionListResponseSchema = z.looseObject({
  functions: z.array(FunctionSchema),
  pagination: NextPaginationSchema.optional(),
});
/** `GET …/functions` response. */
export type FunctionListResponse = z.infer<typeof FunctionListResponseSchema>;

/** `{function}`: GET and PATCH responses. */
export const FunctionResponseSchema = z.looseObject({ function: FunctionSchema });
/** `{function}` response. */
export type FunctionResponse = z.infer<typeof FunctionResponseSchema>;

/** `POST …/functions/{slug}/deployments` 201 response. */
export const DeploymentResponseSchema = z.looseObject({ deployment: DeploymentSchema });
/** `{deployment}` response. */
export type DeploymentResponse = z.infer<typeof DeploymentResponseSchema>;
