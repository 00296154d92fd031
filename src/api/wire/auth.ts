/** Wire shapes of branch-level auth (most fields optional: the platform may omit them). */
import { z } from "zod";
import { TimestampSchema } from "./common.js";

/** Known auth providers; responses keep unknown values as strings. */
export const AuthProviderSchema = z.enum(["better_auth", "stack", "mock"]);
/** An auth provider. */
export type AuthProvider = z.infer<typeof AuthProviderSchema>;

/** `POST …/branches/{b}/auth` body. */
export const AuthEnableRequestSchema = z.object({
  auth_provider: AuthProviderSchema,
  database_name: z.string().min(1).optional(),
});
/** `POST …/branches/{b}/auth` body. */
export type AuthEnableRequest = z.infer<typeof AuthEnableRequestSchema>;

/** `DELETE …/branches/{b}/auth` optional body. */
export const AuthDisableRequestSchema = z.object({ delete_data: z.boolean().optional() });

/** AuthCredentials (every field optional; `secret_server_key` is a credential). */
export const AuthCredentialsSchema = z.looseObject({
  auth_provider: z.string().optional(),
  auth_provider_project_id: z.string().optional(),
  pub_client_key: z.string().optional(),
  secret_server_key: z.string().optional(),
  jwks_url: z.string().optional(),
  schema_name: z.string().optional(),
  table_name: z.string().optional(),
  base_url: z.string().optional(),
});
/** AuthCredentials. */
export type AuthCredentials = z.infer<typeof AuthCredentialsSchema>;

/** AuthIntegration (no keys). */
export const AuthIntegrationSchema = z.looseObject({
  auth_provider: z.string(),
  auth_provider_project_id: z.string().optional(),
  branch_id: z.string().optional(),
  db_name: z.string().optional(),
  created_at: TimestampSchema.optional(),
  owned_by: z.string().optional(),
  transfer_status: z.string().optional(),
  jwks_url: z.string().optional(),
  base_url: z.string().optional(),
  name: z.string().optional(),
  /** Not in the seed's AuthIntegration (the emulator omits it); read when a platform sends it. */
  schema_name: z.string().optional(),
});
/** AuthIntegration. */
export type AuthIntegration = z.infer<typeof AuthIntegrationSchema>;

/** OAuth provider ids. */
export const OAuthProviderIdSchema = z.enum(["google", "github", "microsoft", "vercel"]);

/** `POST …/auth/oauth_providers` body. */
export const OAuthProviderCreateRequestSchema = z.object({
  id: OAuthProviderIdSchema,
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
});
/** `POST …/auth/oauth_providers` body. */
export type OAuthProviderCreateRequest = z.infer<typeof OAuthProviderCreateRequestSchema>;

/** `PATCH …/auth/oauth_providers/{id}` body: omitted fields unchanged. */
export const OAuthProviderUpdateRequestSchema = OAuthProviderCreateRequestSchema.omit({ id: true });
/** `PATCH …/auth/oauth_providers/{id}` body. */
export type OAuthProviderUpdateRequest = z.infer<typeof OAuthProviderUpdateRequestSchema>;

/** OAuthProvider (`client_secret` is a credential). */
export const OAuthProviderSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
/** OAuthProvider. */
export type OAuthProvider = z.infer<typeof OAuthProviderSchema>;

/** `GET …/auth/oauth_providers` response. */
export const OAuthProviderListResponseSchema = z.looseObject({ providers: z.array(OAuthProviderSchema) });
/** `GET …/auth/oauth_providers` response. */
export type OAuthProviderListResponse = z.infer<typeof OAuthProviderListResponseSchema>;

/** `POST …/auth/domains` body. */
export const AuthDomainCreateRequestSchema = z.object({ domain: z.url(), auth_provider: AuthProviderSchema });
/** `POST …/auth/domains` body. */
export type AuthDomainCreateRequest = z.infer<typeof AuthDomainCreateRequestSchema>;

/** `DELETE …/auth/domains` body. */
export const AuthDomainDeleteRequestSchema = z.object({
  auth_provider: AuthProviderSchema,
  domains: z.array(z.object({ domain: z.url() })),
});
/** `DELETE …/auth/domains` body. */
export type AuthDomainDeleteRequest = z.infer<typeof AuthDomainDeleteRequestSchema>;

/** `GET …/auth/domains` response. */
export const AuthDomainListResponseSchema = z.looseObject({
  domains: z.array(z.looseObject({ domain: z.string(), auth_provider: z.string().optional() })),
});
/** `GET …/auth/domains` response. */
export type AuthDomainListResponse = z.infer<typeof AuthDomainListResponseSchema>;

/** `POST …/auth/users` body. */
export const AuthUserCreateRequestSchema = z.object({ email: z.email(), name: z.string().optional() });
/** `POST …/auth/users` body. */
export type AuthUserCreateRequest = z.infer<typeof AuthUserCreateRequestSchema>;

/** `{id}`: auth user create response. */
export const AuthUserCreateResponseSchema = z.looseObject({ id: z.string() });
/** `{id}` response. */
export type AuthUserCreateResponse = z.infer<typeof AuthUserCreateResponseSchema>;

/** `PATCH …/auth/email_provider` body: EmailServer fields, all optional. */
export const EmailServerUpdateRequestSchema = z.object({
  host: z.string().optional(),
  port: z.number().int().min(1).max(65535).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  sender_email: z.string().optional(),
  sender_name: z.string().optional(),
});
/** `PATCH …/auth/email_provider` body. */
export type EmailServerUpdateRequest = z.infer<typeof EmailServerUpdateRequestSchema>;

/** EmailServer (every field optional; `password` is a credential). */
export const EmailServerSchema = z.looseObject({
  host: z.string().optional(),
  port: z.number().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  sender_email: z.string().optional(),
  sender_name: z.string().optional(),
});
/** EmailServer. */
export type EmailServer = z.infer<typeof EmailServerSchema>;
