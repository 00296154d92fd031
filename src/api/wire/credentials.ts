/** Wire shapes of branch-scoped credentials. */
import { z } from "zod";
import { TimestampSchema } from "./common.js";

/** Scopes a client may request; responses may add unknown scopes (never reject them). */
export const CREDENTIAL_SCOPES = ["storage:read", "storage:write", "ai_gateway:invoke", "functions:invoke"] as const;

/** `POST …/credentials` body. */
export const CredentialCreateRequestSchema = z.object({
  scopes: z.array(z.enum(CREDENTIAL_SCOPES)).min(1).max(16),
  principal_type: z.literal("user"),
  name: z.string().min(1).max(255).optional(),
  expires_at: TimestampSchema.optional(),
});
/** `POST …/credentials` body. */
export type CredentialCreateRequest = z.infer<typeof CredentialCreateRequestSchema>;

/** Credential create and rotate response (secrets shown once). */
export const CredentialCreateResponseSchema = z.looseObject({
  token_id: z.string(),
  token_id_short: z.string().optional(),
  name: z.string().optional(),
  api_token: z.string(),
  s3_secret_access_key: z.string(),
  scopes: z.array(z.string()).optional(),
  branch_id: z.string().optional(),
  created_at: TimestampSchema.optional(),
  expires_at: TimestampSchema.optional(),
});
/** Credential create and rotate response. */
export type CredentialCreateResponse = z.infer<typeof CredentialCreateResponseSchema>;

/** Credential metadata (never secrets). */
export const CredentialMetaSchema = z.looseObject({
  token_id: z.string(),
  token_id_short: z.string().optional(),
  name: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  branch_id: z.string().optional(),
  principal_type: z.string().optional(),
  function_id: z.string().optional(),
  created_at: TimestampSchema.optional(),
  expires_at: TimestampSchema.optional(),
  last_used_at: TimestampSchema.optional(),
  revoked_at: TimestampSchema.optional(),
});
/** Credential metadata. */
export type CredentialMeta = z.infer<typeof CredentialMetaSchema>;

/** `GET …/credentials` response. */
export const CredentialListResponseSchema = z.looseObject({ credentials: z.array(CredentialMetaSchema) });
/** `GET …/credentials` response. */
export type CredentialListResponse = z.infer<typeof CredentialListResponseSchema>;

/** `POST …/credentials/{id}/reveal` response. */
export const CredentialRevealResponseSchema = z.looseObject({
  token_id: z.string(),
  api_token: z.string(),
  s3_secret_access_key: z.string(),
});
/** `POST …/reveal` response. */
export type CredentialRevealResponse = z.infer<typeof CredentialRevealResponseSchema>;
