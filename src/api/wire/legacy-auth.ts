/** Deprecated per-project auth routes: request bodies. */
import { z } from "zod";
import { AuthProviderSchema } from "./auth.js";

/** `POST /projects/auth/create` body: `branch_id` is required; `role_name` is deprecated and ignored. */
export const LegacyAuthCreateRequestSchema = z.object({
  auth_provider: AuthProviderSchema,
  project_id: z.string().min(1),
  branch_id: z.string().min(1),
  database_name: z.string().min(1).optional(),
  role_name: z.string().optional(),
});

/** `POST /projects/auth/user` body. */
export const LegacyAuthUserCreateRequestSchema = z.object({
  project_id: z.string().min(1),
  auth_provider: AuthProviderSchema,
  email: z.email(),
  name: z.string().optional(),
  branch_id: z.string().min(1).optional(),
});

/** `POST /projects/auth/keys` and `POST /projects/auth/transfer_ownership` body. */
export const LegacyAuthProjectRequestSchema = z.object({
  project_id: z.string().min(1),
  auth_provider: AuthProviderSchema,
  branch_id: z.string().min(1).optional(),
});

/** `GET /projects/{project_id}/auth/integrations` response. */
export const LegacyAuthIntegrationListResponseSchema = z.looseObject({ data: z.array(z.looseObject({ branch_id: z.string() })) });

/** `POST /projects/auth/transfer_ownership` response. */
export const LegacyAuthTransferResponseSchema = z.looseObject({ url: z.string() });
