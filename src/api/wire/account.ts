/** Wire shapes of regions, the current user, feature availability and `GET /auth`. */
import { z } from "zod";
import { TimestampSchema } from "./common.js";

/** A region (coordinates as strings). */
export const RegionSchema = z.looseObject({
  region_id: z.string(),
  name: z.string().optional(),
  default: z.boolean().optional(),
  geo_lat: z.string().optional(),
  geo_long: z.string().optional(),
});
/** A region. */
export type Region = z.infer<typeof RegionSchema>;

/** `GET /regions` response. */
export const RegionListResponseSchema = z.looseObject({ regions: z.array(RegionSchema) });
/** `GET /regions` response. */
export type RegionListResponse = z.infer<typeof RegionListResponseSchema>;

/** `GET /users/me` response. */
export const CurrentUserResponseSchema = z.looseObject({
  id: z.string(),
  email: z.string().optional(),
  name: z.string().optional(),
  login: z.string().optional(),
  image: z.string().optional(),
  plan: z.string().optional(),
  projects_limit: z.number().optional(),
  branches_limit: z.number().optional(),
  max_autoscaling_limit: z.number().optional(),
});
/** `GET /users/me` response. */
export type CurrentUserResponse = z.infer<typeof CurrentUserResponseSchema>;

/** An organization the user belongs to. */
export const OrganizationSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  handle: z.string().optional(),
  plan: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
});
/** An organization. */
export type Organization = z.infer<typeof OrganizationSchema>;

/** `GET /users/me/organizations` response. */
export const OrganizationListResponseSchema = z.looseObject({ organizations: z.array(OrganizationSchema) });
/** `GET /users/me/organizations` response. */
export type OrganizationListResponse = z.infer<typeof OrganizationListResponseSchema>;

/** `GET /auth` response: `auth_method` is `api_key_user` or `api_key_org` for keys. */
export const AuthDetailsResponseSchema = z.looseObject({
  account_id: z.string(),
  auth_method: z.string(),
  auth_data: z.unknown().optional(),
});
/** `GET /auth` response. */
export type AuthDetailsResponse = z.infer<typeof AuthDetailsResponseSchema>;

/** `GET …/ai_gateway` response; 404 with `reason` when unavailable. */
export const AiGatewayResponseSchema = z.looseObject({ enabled: z.boolean(), base_url: z.string().optional() });
/** `GET …/ai_gateway` response. */
export type AiGatewayResponse = z.infer<typeof AiGatewayResponseSchema>;
