/**
 * The client's reading of the wire records, derived from the shared `wire/`
 * definitions so the client and the emulator name and type every field the same way. Each
 * schema picks the fields the client uses (an allow-list: secrets the engine never needs stay
 * out), keeps the wire's optionality except where listed (`required`/`partial`), drops unknown
 * fields and reads `null` as absent. Enum-like fields are plain strings on the wire already.
 */
import { z } from "zod";
import { lenient } from "./response-reader.js";
import * as w from "./wire/index.js";

/** Ids some platforms send as numbers: read either way, kept as strings. */
const LenientIdSchema = z.union([z.string(), z.number()]).transform(String);

/** A project. */
export const ProjectSchema = lenient(
  w.ProjectSchema.pick({ id: true, name: true, region_id: true, pg_version: true, org_id: true, created_at: true, updated_at: true }).extend({
    default_endpoint_settings: lenient(
      w.ProjectSchema.shape.default_endpoint_settings
        .unwrap()
        .pick({ autoscaling_limit_min_cu: true, autoscaling_limit_max_cu: true, suspend_timeout_seconds: true }),
    ).optional(),
  }),
);

/** A branch: the engine reads `default`, `protected` and `created_at`, so they are required. */
export const BranchSchema = lenient(
  w.BranchSchema.pick({
    id: true,
    name: true,
    project_id: true,
    parent_id: true,
    current_state: true,
    default: true,
    protected: true,
    created_at: true,
    updated_at: true,
    expires_at: true,
  }).required({ default: true, protected: true, created_at: true }),
);

/** A branch annotation: only its values are read. */
export const AnnotationSchema = lenient(w.AnnotationSchema.pick({ value: true }));

/** A compute endpoint. */
export const EndpointSchema = lenient(
  w.EndpointSchema.pick({
    id: true,
    branch_id: true,
    name: true,
    type: true,
    host: true,
    current_state: true,
    autoscaling_limit_min_cu: true,
    autoscaling_limit_max_cu: true,
    suspend_timeout_seconds: true,
    disabled: true,
    created_at: true,
  }),
);

/** An operation; `project_id` is known from the request, so it may be absent. */
export const OperationSchema = lenient(
  w.OperationSchema.pick({
    id: true,
    action: true,
    status: true,
    project_id: true,
    branch_id: true,
    endpoint_id: true,
    error: true,
    created_at: true,
    updated_at: true,
  }).partial({ project_id: true }),
);

/** `operations` of a control-plane mutation; absent reads as `[]`. */
export const OperationsField = z
  .array(OperationSchema)
  .nullish()
  .transform((ops) => ops ?? []);

/** A database. */
export const DatabaseSchema = lenient(w.DatabaseSchema.pick({ id: true, branch_id: true, name: true, owner_name: true }));

/** A role (the password, if any, is dropped). */
export const RoleSchema = lenient(w.RoleSchema.pick({ branch_id: true, name: true, protected: true, authentication_method: true }));

/** An auth integration. */
export const AuthIntegrationSchema = lenient(
  w.AuthIntegrationSchema.pick({
    auth_provider: true,
    db_name: true,
    branch_id: true,
    jwks_url: true,
    base_url: true,
    schema_name: true,
    created_at: true,
  }),
);

/** Auth credentials (all optional; the keys are dropped: the engine never needs them). */
export const AuthCredentialsSchema = lenient(
  w.AuthCredentialsSchema.pick({
    auth_provider: true,
    auth_provider_project_id: true,
    jwks_url: true,
    schema_name: true,
    table_name: true,
    base_url: true,
  }),
);

/** The Data API of a database; `settings` is `null` when the platform reports none. */
export const DataApiSchema = lenient(
  w.DataApiResponseSchema.pick({ url: true, status: true, available_schemas: true })
    .partial({ url: true })
    .extend({ settings: w.DataApiResponseSchema.shape.settings.transform((settings) => settings ?? null) }),
);

/** A bucket: the engine reads `access_level`, so it is required. */
export const BucketSchema = lenient(w.BucketSchema.pick({ name: true, access_level: true, created_at: true }).required({ access_level: true }));

/** A page of bucket objects (`folders` defaults to `[]`, `is_truncated` to `false`). */
export const BucketObjectPageSchema = lenient(
  w.ObjectListResponseSchema.pick({ folders: true, next_cursor: true, is_truncated: true }).extend({
    objects: z.array(lenient(w.StorageObjectSchema)),
  }),
);

/** A deployment: the engine reads `runtime`, so it is required. */
export const DeploymentSchema = lenient(
  w.DeploymentSchema.pick({ id: true, status: true, runtime: true, memory_mib: true, created_at: true, environment: true, error: true }).required({
    runtime: true,
  }),
);

const InvocationUrlField = w.FunctionSchema.shape.invocation_url.transform((url) => url ?? "");

/** A function: `name` required, `invocation_url` defaults to `""`. */
export const FunctionSchema = lenient(
  w.FunctionSchema.pick({ slug: true, name: true, created_at: true })
    .required({ name: true })
    .extend({
      id: LenientIdSchema.optional(),
      invocation_url: InvocationUrlField,
      current_deployment: DeploymentSchema.optional(),
      active_deployment: DeploymentSchema.optional(),
    }),
);

/**
 * A function as a build watcher reads it: its slug, invocation URL and the id, status and error
 * of its current deployment (a functions page holds every function's deployments and their
 * environment names; a watcher reading it on every tick copies only these).
 */
export const FunctionBuildSchema = lenient(
  w.FunctionSchema.pick({ slug: true }).extend({
    invocation_url: InvocationUrlField,
    current_deployment: lenient(w.DeploymentSchema.pick({ id: true, status: true, error: true })).optional(),
  }),
);

/** A trigger: `function_path` defaults to `/`, `inherited` to `false`. */
export const TriggerSchema = lenient(
  w.TriggerSchema.pick({ type: true, function_slug: true, name: true, enabled: true, version: true, next_run_at: true }).extend({
    trigger_id: LenientIdSchema,
    function_path: w.TriggerSchema.shape.function_path.transform((path) => path ?? "/"),
    inherited: w.TriggerSchema.shape.inherited.transform((inherited) => inherited ?? false),
    schedule: lenient(w.TriggerSchema.shape.schedule.unwrap()).optional(),
    storage_object_created: lenient(w.TriggerSchema.shape.storage_object_created.unwrap()).optional(),
  }),
);

/** A custom domain: `cname_target` defaults to `""` (no custom-domain front door). */
export const CustomDomainSchema = lenient(
  w.CustomDomainSchema.pick({
    domain: true,
    entity_type: true,
    entity_id: true,
    status: true,
    dns_status: true,
    binding_status: true,
    status_reason: true,
  }).extend({ cname_target: w.CustomDomainSchema.shape.cname_target.transform((target) => target ?? "") }),
);

const CredentialRecordSchema = w.CredentialMetaSchema.pick({
  token_id: true,
  token_id_short: true,
  name: true,
  scopes: true,
  principal_type: true,
  branch_id: true,
  created_at: true,
  expires_at: true,
  last_used_at: true,
  revoked_at: true,
}).required({ scopes: true, created_at: true });

/** Credential metadata: `scopes` and `created_at` required. */
export const CredentialSchema = lenient(CredentialRecordSchema);

/** A created credential with its secrets (shown once). */
export const CredentialSecretSchema = lenient(
  CredentialRecordSchema.extend(w.CredentialCreateResponseSchema.pick({ api_token: true, s3_secret_access_key: true }).shape),
);

/** The AI gateway: `base_url` required when the gateway answers. */
export const AiGatewaySchema = lenient(w.AiGatewayResponseSchema.pick({ enabled: true, base_url: true }).required({ base_url: true }));

const ApiKeyFieldsSchema = w.ApiKeyRevokeResponseSchema.pick({ id: true, name: true, created_at: true, revoked: true })
  .partial({ revoked: true })
  .extend({ last_used_at: w.TimestampSchema.optional() });

/** An API key record (never the token); `last_used_at: null` reads as absent. */
export const ApiKeyRecordSchema = lenient(ApiKeyFieldsSchema);

/** A created API key with its token `key`. */
export const ApiKeyCreatedSchema = lenient(ApiKeyFieldsSchema.extend(w.ApiKeyCreateResponseSchema.pick({ key: true }).shape));

/** `pagination` of a next-flavour list; absent or `null` on the last page. */
export const NextPaginationField = lenient(w.NextPaginationSchema.pick({ next: true, cursor: true })).nullish();

/** `pagination` of a cursor-flavour list; absent or `null` on the last page. */
export const CursorPaginationField = lenient(w.CursorPaginationSchema.pick({ cursor: true })).nullish();

/** Any body: used where the client reads nothing (`{}`, 204). */
export const IgnoredBodySchema = z.unknown().transform(() => undefined);
