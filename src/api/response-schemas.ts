/**
 * Client-side response schemas (api.md §21): strict on the fields the engine reads, every other
 * field optional, unknown fields dropped, enum values kept as opaque strings, `null` read as
 * absent. The emulator's schemas (`wire/`) describe what a server sends; these describe the
 * least the client requires, so a platform that omits an optional field is never rejected.
 */
import { z } from "zod";
import type {
  ApiAiGateway,
  ApiAuthCredentials,
  ApiAuthIntegration,
  ApiBranch,
  ApiBucket,
  ApiBucketObjectPage,
  ApiCredential,
  ApiCredentialSecret,
  ApiCustomDomain,
  ApiDataApi,
  ApiDatabase,
  ApiDeployment,
  ApiEndpoint,
  ApiFunction,
  ApiKeyCreated,
  ApiKeyRecord,
  ApiOperation,
  ApiProject,
  ApiRole,
  ApiTrigger,
} from "./wire-types.js";

/** An optional field that may also arrive as `null`. */
function opt<T extends z.ZodType>(schema: T): z.ZodType<z.output<T> | undefined> {
  return schema.nullish().transform((value) => value ?? undefined) as z.ZodType<z.output<T> | undefined>;
}

const str = z.string();
const num = z.number();

/** A project. */
export const ProjectSchema: z.ZodType<ApiProject> = z.object({
  id: str,
  name: str,
  region_id: str,
  pg_version: num,
  org_id: opt(str),
  created_at: opt(str),
  updated_at: opt(str),
  default_endpoint_settings: opt(
    z.object({
      autoscaling_limit_min_cu: opt(num),
      autoscaling_limit_max_cu: opt(num),
      suspend_timeout_seconds: opt(num),
    }),
  ),
});

/** A branch. */
export const BranchSchema: z.ZodType<ApiBranch> = z.object({
  id: str,
  name: str,
  project_id: opt(str),
  parent_id: opt(str),
  current_state: opt(str),
  default: z.boolean(),
  protected: z.boolean(),
  created_at: str,
  updated_at: opt(str),
  expires_at: opt(str),
});

/** A compute endpoint. */
export const EndpointSchema: z.ZodType<ApiEndpoint> = z.object({
  id: str,
  branch_id: str,
  type: str,
  host: opt(str),
  current_state: opt(str),
  autoscaling_limit_min_cu: num,
  autoscaling_limit_max_cu: num,
  suspend_timeout_seconds: num,
  disabled: opt(z.boolean()),
  created_at: opt(str),
});

/** An operation. */
export const OperationSchema: z.ZodType<ApiOperation> = z.object({
  id: str,
  action: str,
  status: str,
  project_id: opt(str),
  branch_id: opt(str),
  endpoint_id: opt(str),
  error: opt(str),
  created_at: opt(str),
  updated_at: opt(str),
});

/** `operations` of a control-plane mutation; absent reads as `[]`. */
export const OperationsField = opt(z.array(OperationSchema)).transform((ops) => ops ?? []);

/** A database. */
export const DatabaseSchema: z.ZodType<ApiDatabase> = z.object({
  id: opt(num),
  branch_id: opt(str),
  name: str,
  owner_name: str,
});

/** A role (the password, if any, is dropped). */
export const RoleSchema: z.ZodType<ApiRole> = z.object({
  branch_id: opt(str),
  name: str,
  protected: opt(z.boolean()),
});

/** An auth integration. */
export const AuthIntegrationSchema: z.ZodType<ApiAuthIntegration> = z.object({
  auth_provider: str,
  db_name: opt(str),
  branch_id: opt(str),
  jwks_url: opt(str),
  base_url: opt(str),
  schema_name: opt(str),
  created_at: opt(str),
});

/** Auth credentials (all optional; the secret server key is dropped). */
export const AuthCredentialsSchema: z.ZodType<ApiAuthCredentials> = z.object({
  auth_provider: opt(str),
  auth_provider_project_id: opt(str),
  jwks_url: opt(str),
  schema_name: opt(str),
  table_name: opt(str),
  base_url: opt(str),
});

/** The Data API of a database. */
export const DataApiSchema: z.ZodType<ApiDataApi> = z.object({
  url: opt(str),
  status: opt(str),
  settings: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((settings) => settings ?? null),
  available_schemas: opt(z.array(str)),
});

/** A bucket. */
export const BucketSchema: z.ZodType<ApiBucket> = z.object({
  name: str,
  access_level: str,
  created_at: opt(str),
});

/** A page of bucket objects. */
export const BucketObjectPageSchema: z.ZodType<ApiBucketObjectPage> = z.object({
  objects: z.array(
    z.object({ key: str, size: opt(num), last_modified: opt(str), etag: opt(str) }),
  ),
  folders: opt(z.array(str)).transform((folders) => folders ?? []),
  next_cursor: opt(str),
  is_truncated: opt(z.boolean()).transform((truncated) => truncated ?? false),
});

/** A deployment. */
export const DeploymentSchema: z.ZodType<ApiDeployment> = z.object({
  id: num,
  status: str,
  runtime: str,
  memory_mib: opt(num),
  created_at: opt(str),
  environment: opt(z.array(str)),
  error: opt(str),
});

/** A function. */
export const FunctionSchema: z.ZodType<ApiFunction> = z.object({
  id: opt(z.union([str, num]).transform(String)),
  slug: str,
  name: str,
  created_at: opt(str),
  invocation_url: opt(str).transform((url) => url ?? ""),
  current_deployment: opt(DeploymentSchema),
  active_deployment: opt(DeploymentSchema),
});

/** A trigger. */
export const TriggerSchema: z.ZodType<ApiTrigger> = z.object({
  trigger_id: z.union([str, num]).transform(String),
  type: str,
  function_slug: str,
  name: str,
  function_path: opt(str).transform((path) => path ?? "/"),
  enabled: z.boolean(),
  inherited: opt(z.boolean()).transform((inherited) => inherited ?? false),
  version: opt(num),
  schedule: opt(z.object({ cron: str })),
  storage_object_created: opt(z.object({ bucket_name: str, prefix: opt(str) })),
  next_run_at: str.nullish(),
});

/** A custom domain. */
export const CustomDomainSchema: z.ZodType<ApiCustomDomain> = z.object({
  domain: str,
  entity_type: str,
  entity_id: str,
  cname_target: opt(str).transform((target) => target ?? ""),
  status: opt(str),
  dns_status: opt(str),
  binding_status: opt(str),
  status_reason: opt(str),
});

const credentialFields = {
  token_id: str,
  token_id_short: opt(str),
  name: opt(str),
  scopes: z.array(str),
  principal_type: opt(str),
  branch_id: opt(str),
  created_at: str,
  expires_at: opt(str),
  last_used_at: opt(str),
  revoked_at: opt(str),
};

/** Credential metadata. */
export const CredentialSchema: z.ZodType<ApiCredential> = z.object(credentialFields);

/** A created credential with its secrets. */
export const CredentialSecretSchema: z.ZodType<ApiCredentialSecret> = z.object({
  ...credentialFields,
  api_token: str,
  s3_secret_access_key: str,
});

/** The AI gateway. */
export const AiGatewaySchema: z.ZodType<ApiAiGateway> = z.object({ enabled: z.boolean(), base_url: str });

const apiKeyFields = {
  id: num,
  name: str,
  created_at: opt(str),
  last_used_at: opt(str),
  revoked: opt(z.boolean()),
};

/** An API key record. */
export const ApiKeyRecordSchema: z.ZodType<ApiKeyRecord> = z.object(apiKeyFields);

/** A created API key with its token. */
export const ApiKeyCreatedSchema: z.ZodType<ApiKeyCreated> = z.object({ ...apiKeyFields, key: str });

/** Any body: used where the client reads nothing (`{}`, 204). */
export const IgnoredBodySchema = z.unknown().transform(() => undefined);
