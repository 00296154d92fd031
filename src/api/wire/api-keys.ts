/** Wire shapes of API keys, personal and organization. */
import { z } from "zod";
import { TimestampSchema } from "./common.js";

/** `POST /api_keys` body. */
export const ApiKeyCreateRequestSchema = z.object({ key_name: z.string().min(1).max(255) });
/** `POST /api_keys` body. */
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequestSchema>;

/** `POST /organizations/{org}/api_keys` body: optionally limited to one project. */
export const OrgApiKeyCreateRequestSchema = ApiKeyCreateRequestSchema.extend({ project_id: z.string().optional() });
/** `POST /organizations/{org}/api_keys` body. */
export type OrgApiKeyCreateRequest = z.infer<typeof OrgApiKeyCreateRequestSchema>;

/** An API key list item (never the token). */
export const ApiKeyListItemSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  created_at: TimestampSchema.optional(),
  created_by: z.looseObject({ id: z.string().optional(), name: z.string().optional(), image: z.string().optional() }).optional(),
  last_used_at: TimestampSchema.nullable().optional(),
  last_used_from_addr: z.string().optional(),
  project_id: z.string().optional(),
});
/** An API key list item. */
export type ApiKeyListItem = z.infer<typeof ApiKeyListItemSchema>;

/** `GET /api_keys` response: a bare array. */
export const ApiKeyListResponseSchema = z.array(ApiKeyListItemSchema);
/** `GET /api_keys` response. */
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponseSchema>;

/** `POST /api_keys` response: `key` appears only here. */
export const ApiKeyCreateResponseSchema = z.looseObject({
  id: z.number(),
  key: z.string(),
  name: z.string(),
  created_at: TimestampSchema.optional(),
  created_by: z.string().optional(),
  project_id: z.string().optional(),
});
/** `POST /api_keys` response. */
export type ApiKeyCreateResponse = z.infer<typeof ApiKeyCreateResponseSchema>;

/** `DELETE /api_keys/{id}` response. */
export const ApiKeyRevokeResponseSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  created_at: TimestampSchema.optional(),
  created_by: z.string().optional(),
  last_used_at: TimestampSchema.nullable().optional(),
  last_used_from_addr: z.string().optional(),
  revoked: z.boolean(),
  project_id: z.string().optional(),
});
/** `DELETE /api_keys/{id}` response. */
export type ApiKeyRevokeResponse = z.infer<typeof ApiKeyRevokeResponseSchema>;
