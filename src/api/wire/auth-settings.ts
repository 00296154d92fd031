/**
 * Wire shapes of the branch auth settings at record level (the payloads follow the
 * platform's published types): email and password
 * sign-in, localhost redirects, the organization, magic-link and phone-number plugins, the webhook,
 * and user roles. The client does not call these routes; the emulator validates with them.
 */
import { z } from "zod";

/** The fields of the email and password sign-in settings. */
const EmailAndPasswordShape = {
  enabled: z.boolean(),
  email_verification_method: z.enum(["link", "otp"]),
  require_email_verification: z.boolean(),
  auto_sign_in_after_verification: z.boolean(),
  send_verification_email_on_sign_up: z.boolean(),
  send_verification_email_on_sign_in: z.boolean(),
  disable_sign_up: z.boolean(),
};

/** `GET/PATCH …/auth/email_and_password` response. */
export const EmailAndPasswordSchema = z.looseObject(EmailAndPasswordShape);
/** Email and password sign-in settings. */
export type EmailAndPassword = z.infer<typeof EmailAndPasswordSchema>;

/** `PATCH …/auth/email_and_password` body: omitted fields keep their values. */
export const EmailAndPasswordUpdateRequestSchema = z.object(EmailAndPasswordShape).partial();
/** `PATCH …/auth/email_and_password` body. */
export type EmailAndPasswordUpdateRequest = z.infer<typeof EmailAndPasswordUpdateRequestSchema>;

/** `GET …/auth/allow_localhost` response and `PATCH` body (required there). */
export const AllowLocalhostSchema = z.object({ allow_localhost: z.boolean() });
/** Whether redirects to localhost are allowed. */
export type AllowLocalhost = z.infer<typeof AllowLocalhostSchema>;

/** The events an auth webhook can be sent for. */
export const AuthWebhookEventSchema = z.enum([
  "user.before_create",
  "user.created",
  "send.otp",
  "send.magic_link",
  "organization.invitation.created",
  "organization.invitation.accepted",
  "phone_number.verified",
]);

/** `PUT …/auth/webhooks` body and the `GET` response: the whole configuration is replaced. */
export const AuthWebhookSchema = z.object({
  enabled: z.boolean(),
  webhook_url: z.url({ protocol: /^https?$/ }).optional(),
  enabled_events: z.array(AuthWebhookEventSchema).optional(),
  timeout_seconds: z.number().int().min(1).max(30).optional(),
});
/** An auth webhook configuration. */
export type AuthWebhook = z.infer<typeof AuthWebhookSchema>;

/** The organization plugin. */
export const OrganizationPluginSchema = z.looseObject({
  enabled: z.boolean(),
  organization_limit: z.number().int(),
  membership_limit: z.number().int(),
  creator_role: z.enum(["admin", "owner"]),
  send_invitation_email: z.boolean(),
});
/** The organization plugin settings. */
export type OrganizationPlugin = z.infer<typeof OrganizationPluginSchema>;

/** `PATCH …/auth/plugins/organization` body. */
export const OrganizationPluginUpdateRequestSchema = z.object({
  enabled: z.boolean().optional(),
  organization_limit: z.number().int().min(1).optional(),
  membership_limit: z.number().int().min(1).optional(),
  creator_role: z.enum(["admin", "owner"]).optional(),
  send_invitation_email: z.boolean().optional(),
});

/** The magic-link plugin (`expires_in` in seconds). */
export const MagicLinkPluginSchema = z.looseObject({ enabled: z.boolean(), expires_in: z.number().int(), disable_sign_up: z.boolean() });
/** The magic-link plugin settings. */
export type MagicLinkPlugin = z.infer<typeof MagicLinkPluginSchema>;

/** `PATCH …/auth/plugins/magic-link` body. */
export const MagicLinkPluginUpdateRequestSchema = z.object({
  enabled: z.boolean().optional(),
  expires_in: z.number().int().min(1).optional(),
  disable_sign_up: z.boolean().optional(),
});

/** The phone-number plugin (`otp_expires_in` in seconds). */
export const PhoneNumberPluginSchema = z.looseObject({ enabled: z.boolean(), otp_expires_in: z.number().int().optional() });
/** The phone-number plugin settings. */
export type PhoneNumberPlugin = z.infer<typeof PhoneNumberPluginSchema>;

/** `PATCH …/auth/plugins/phone-number` body. */
export const PhoneNumberPluginUpdateRequestSchema = z.object({ enabled: z.boolean().optional(), otp_expires_in: z.number().int().min(1).optional() });

/** `PUT …/auth/users/{id}/role` body: the user's roles, replaced. */
export const AuthUserRoleRequestSchema = z.object({ roles: z.array(z.string().min(1).max(255)).min(1) });
