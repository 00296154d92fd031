/**
 * Records as the platform's management API v2 returns them (api.md), in wire (snake_case)
 * vocabulary. Only the fields the engine and the CLI read are required; everything else the
 * platform may send is optional and unknown fields are dropped by validation. Unknown enum
 * values (statuses, actions, access levels) are kept as opaque strings.
 */

/** A project (api.md §3). */
export interface ApiProject {
  id: string;
  name: string;
  region_id: string;
  pg_version: number;
  org_id?: string;
  created_at?: string;
  updated_at?: string;
  default_endpoint_settings?: {
    autoscaling_limit_min_cu?: number;
    autoscaling_limit_max_cu?: number;
    suspend_timeout_seconds?: number;
  };
}

/** A branch (api.md §5). */
export interface ApiBranch {
  id: string;
  name: string;
  project_id?: string;
  parent_id?: string;
  current_state?: string;
  /** The project's default branch. */
  default: boolean;
  protected: boolean;
  created_at: string;
  updated_at?: string;
  expires_at?: string;
}

/** A compute endpoint (api.md §6). */
export interface ApiEndpoint {
  id: string;
  branch_id: string;
  /** `read_write` or `read_only`. */
  type: string;
  host?: string;
  current_state?: string;
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
  disabled?: boolean;
  created_at?: string;
}

/** A control-plane operation (api.md §4). */
export interface ApiOperation {
  id: string;
  /** Opaque, e.g. `apply_config`, `start_compute`. */
  action: string;
  /** `scheduling`, `running`, `cancelling`, `finished`, `skipped`, `failed`, `error`, `cancelled`, or unknown. */
  status: string;
  project_id?: string;
  branch_id?: string;
  endpoint_id?: string;
  error?: string;
  created_at?: string;
  updated_at?: string;
}

/** A Postgres database on a branch (api.md §7). */
export interface ApiDatabase {
  id?: number;
  branch_id?: string;
  name: string;
  owner_name: string;
}

/** A Postgres role on a branch (api.md §7). Never carries a password here. */
export interface ApiRole {
  branch_id?: string;
  name: string;
  protected?: boolean;
}

/** The branch's auth integration, without keys (api.md §8 AuthIntegration). */
export interface ApiAuthIntegration {
  auth_provider: string;
  db_name?: string;
  branch_id?: string;
  jwks_url?: string;
  base_url?: string;
  schema_name?: string;
  created_at?: string;
}

/**
 * What enabling auth returns (api.md §8 AuthCredentials; every field optional). The secret
 * server key is dropped by validation: the engine never needs it.
 */
export interface ApiAuthCredentials {
  auth_provider?: string;
  auth_provider_project_id?: string;
  jwks_url?: string;
  schema_name?: string;
  table_name?: string;
  base_url?: string;
}

/** The Data API of one database (api.md §9). */
export interface ApiDataApi {
  url?: string;
  status?: string;
  /** Wire (snake_case) settings; `null` when the platform reports none. */
  settings: Record<string, unknown> | null;
  available_schemas?: string[];
}

/** A storage bucket (api.md §12). */
export interface ApiBucket {
  name: string;
  /** `private`, `public_read`, or an unknown value kept as is. */
  access_level: string;
  created_at?: string;
}

/** One stored object (api.md §12). */
export interface ApiBucketObject {
  key: string;
  size?: number;
  last_modified?: string;
  etag?: string;
}

/** One page of a bucket listing (api.md §12). */
export interface ApiBucketObjectPage {
  objects: ApiBucketObject[];
  folders: string[];
  next_cursor?: string;
  is_truncated: boolean;
}

/** A function deployment (api.md §13). */
export interface ApiDeployment {
  id: number;
  /** `pending`, `building`, `completed`, `failed`. */
  status: string;
  runtime: string;
  memory_mib?: number;
  created_at?: string;
  /** Sorted env var names (values are write-only). */
  environment?: string[];
  error?: string;
}

/** A function on a branch (api.md §13). */
export interface ApiFunction {
  id?: string;
  slug: string;
  name: string;
  created_at?: string;
  /** May be `""`. */
  invocation_url: string;
  current_deployment?: ApiDeployment;
  active_deployment?: ApiDeployment;
}

/** A trigger (api.md §14). */
export interface ApiTrigger {
  trigger_id: string;
  /** `schedule`, `storage_object_created`, or unknown. */
  type: string;
  function_slug: string;
  name: string;
  function_path: string;
  enabled: boolean;
  inherited: boolean;
  version?: number;
  schedule?: { cron: string };
  storage_object_created?: { bucket_name: string; prefix?: string };
  next_run_at?: string | null;
}

/** The body of `POST …/triggers` and `PATCH …/triggers/{id}` (api.md §14). */
export interface ApiTriggerInput {
  type: string;
  function_slug?: string;
  name?: string;
  function_path?: string;
  enabled?: boolean;
  schedule?: { cron: string };
  storage_object_created?: { bucket_name: string; prefix?: string };
}

/** A custom domain (api.md §15). */
export interface ApiCustomDomain {
  domain: string;
  entity_type: string;
  entity_id: string;
  /** `""` when the region has no custom-domain front door. */
  cname_target: string;
  status?: string;
  dns_status?: string;
  binding_status?: string;
  status_reason?: string;
}

/** Credential metadata, never secrets (api.md §16). */
export interface ApiCredential {
  token_id: string;
  token_id_short?: string;
  name?: string;
  scopes: string[];
  principal_type?: string;
  branch_id?: string;
  created_at: string;
  expires_at?: string;
  last_used_at?: string;
  revoked_at?: string;
}

/** A created credential: shown once (api.md §16). Never log `api_token` or `s3_secret_access_key`. */
export interface ApiCredentialSecret extends ApiCredential {
  api_token: string;
  s3_secret_access_key: string;
}

/** The AI gateway of a branch (api.md §17). */
export interface ApiAiGateway {
  enabled: boolean;
  base_url: string;
}

/** An API key record, never the token (api.md §18). */
export interface ApiKeyRecord {
  id: number;
  name: string;
  created_at?: string;
  last_used_at?: string;
  revoked?: boolean;
}

/** A created API key: the token `key` appears only here (api.md §18). Never log it. */
export interface ApiKeyCreated extends ApiKeyRecord {
  key: string;
}
