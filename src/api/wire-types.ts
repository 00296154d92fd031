/**
 * Records as the client reads them from the platform's management API v2, in wire
 * (snake_case) vocabulary. Each type is the output of its schema in `response-schemas.ts`,
 * which derives from the shared `wire/` definitions: only the fields the engine and the CLI
 * read are required, unknown fields are dropped, unknown enum values are kept as strings.
 */
import type { z } from "zod";
import type * as schemas from "./response-schemas.js";

/** A project. */
export type ApiProject = z.output<typeof schemas.ProjectSchema>;
/** A branch. */
export type ApiBranch = z.output<typeof schemas.BranchSchema>;
/** A compute endpoint; `type` is `read_write` or `read_only`. */
export type ApiEndpoint = z.output<typeof schemas.EndpointSchema>;
/** A control-plane operation; `action` and `status` are opaque strings. */
export type ApiOperation = z.output<typeof schemas.OperationSchema>;
/** A Postgres database on a branch. */
export type ApiDatabase = z.output<typeof schemas.DatabaseSchema>;
/** A Postgres role on a branch. Never carries a password here. */
export type ApiRole = z.output<typeof schemas.RoleSchema>;
/** The branch's auth integration, without keys. */
export type ApiAuthIntegration = z.output<typeof schemas.AuthIntegrationSchema>;
/** What enabling auth returns (every field optional, no keys). */
export type ApiAuthCredentials = z.output<typeof schemas.AuthCredentialsSchema>;
/** The Data API of one database; `settings` is `null` when the platform reports none. */
export type ApiDataApi = z.output<typeof schemas.DataApiSchema>;
/** A storage bucket; `access_level` is `private`, `public_read` or unknown. */
export type ApiBucket = z.output<typeof schemas.BucketSchema>;
/** One page of a bucket listing. */
export type ApiBucketObjectPage = z.output<typeof schemas.BucketObjectPageSchema>;
/** One stored object. */
export type ApiBucketObject = ApiBucketObjectPage["objects"][number];
/** A function deployment; `environment` lists sorted names (values are write-only). */
export type ApiDeployment = z.output<typeof schemas.DeploymentSchema>;
/** A function on a branch; `invocation_url` may be `""`. */
export type ApiFunction = z.output<typeof schemas.FunctionSchema>;
/** A function as a build watcher reads it: slug, invocation URL, current deployment's id, status and error. */
export type ApiFunctionBuild = z.output<typeof schemas.FunctionBuildSchema>;
/** A trigger. */
export type ApiTrigger = z.output<typeof schemas.TriggerSchema>;
/** A custom domain; `cname_target` is `""` when the region has no front door. */
export type ApiCustomDomain = z.output<typeof schemas.CustomDomainSchema>;
/** Credential metadata, never secrets. */
export type ApiCredential = z.output<typeof schemas.CredentialSchema>;
/** A created credential: shown once. Never log `api_token` or `s3_secret_access_key`. */
export type ApiCredentialSecret = z.output<typeof schemas.CredentialSecretSchema>;
/** The AI gateway of a branch. */
export type ApiAiGateway = z.output<typeof schemas.AiGatewaySchema>;
/** An API key record, never the token. */
export type ApiKeyRecord = z.output<typeof schemas.ApiKeyRecordSchema>;
/** A created API key: the token `key` appears only here. Never log it. */
export type ApiKeyCreated = z.output<typeof schemas.ApiKeyCreatedSchema>;

/** The body of `POST …/triggers` and `PATCH …/triggers/{id}`. */
export interface ApiTriggerInput {
  type: string;
  function_slug?: string;
  name?: string;
  function_path?: string;
  enabled?: boolean;
  schedule?: { cron: string };
  storage_object_created?: { bucket_name: string; prefix?: string };
}
