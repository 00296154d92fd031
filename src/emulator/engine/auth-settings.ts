/**
 * The settings of a branch's auth integration beyond the integration itself: email and password
 * sign-in, localhost redirects, the organization, magic-link and phone-number plugins, the
 * webhook, and the roles of each user. Each setting holds the platform's default until it is
 * written; PATCH bodies change only the fields they give, the webhook's PUT replaces it whole.
 */
import type {
  AuthWebhook,
  EmailAndPassword,
  EmailAndPasswordUpdateRequest,
  MagicLinkPlugin,
  OrganizationPlugin,
  PhoneNumberPlugin,
} from "../../api/wire/index.js";
import type { AuthRec, AuthSettingsRec, BranchRec } from "../store/records.js";
import { RuleError } from "./rule-error.js";

/** The settings of a new integration. */
function defaultSettings(): AuthSettingsRec {
  return {
    emailAndPassword: {
      enabled: true,
      email_verification_method: "otp",
      require_email_verification: false,
      auto_sign_in_after_verification: true,
      send_verification_email_on_sign_up: false,
      send_verification_email_on_sign_in: false,
      disable_sign_up: false,
    },
    allowLocalhost: true,
    webhook: { enabled: false },
    organization: { enabled: false, organization_limit: 5, membership_limit: 100, creator_role: "owner", send_invitation_email: false },
    magicLink: { enabled: false, expires_in: 300, disable_sign_up: false },
    phoneNumber: { enabled: false, otp_expires_in: 300 },
  };
}

/** The integration's settings, created with the defaults on first use (older data dirs have none). */
export function authSettings(auth: AuthRec): AuthSettingsRec {
  auth.settings ??= defaultSettings();
  return auth.settings;
}

/** Copies the given fields onto `target`, leaving the omitted ones as they are. */
function patch<T extends object>(target: T, changes: Partial<T>): T {
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target;
}

/** Changes the email and password sign-in settings; returns them. */
export function updateEmailAndPassword(auth: AuthRec, changes: EmailAndPasswordUpdateRequest): EmailAndPassword {
  return patch(authSettings(auth).emailAndPassword, changes);
}

/** Allows or refuses redirects to localhost; returns the new value. */
export function setAllowLocalhost(auth: AuthRec, allow: boolean): boolean {
  authSettings(auth).allowLocalhost = allow;
  return allow;
}

/** Replaces the webhook configuration; an enabled webhook needs a URL to call. */
export function replaceWebhook(auth: AuthRec, webhook: AuthWebhook): AuthWebhook {
  if (webhook.enabled && webhook.webhook_url === undefined) {
    throw new RuleError("invalid", "an enabled webhook needs webhook_url, the https URL to send auth events to", { field: "webhook_url" });
  }
  authSettings(auth).webhook = structuredClone(webhook);
  return structuredClone(webhook);
}

/** Changes the organization plugin; returns it. */
export function updateOrganizationPlugin(auth: AuthRec, changes: Partial<OrganizationPlugin>): OrganizationPlugin {
  return patch(authSettings(auth).organization, changes);
}

/** Changes the magic-link plugin; returns it. */
export function updateMagicLinkPlugin(auth: AuthRec, changes: Partial<MagicLinkPlugin>): MagicLinkPlugin {
  return patch(authSettings(auth).magicLink, changes);
}

/** Changes the phone-number plugin; returns it. */
export function updatePhoneNumberPlugin(auth: AuthRec, changes: Partial<PhoneNumberPlugin>): PhoneNumberPlugin {
  return patch(authSettings(auth).phoneNumber, changes);
}

/** Replaces the roles of an auth user (`not_found` when the branch has no such user). */
export function setAuthUserRoles(branch: BranchRec, auth: AuthRec, userId: string, roles: string[]): void {
  const user = auth.users.get(userId);
  if (user === undefined) throw new RuleError("not_found", `auth user ${userId} not found on branch ${branch.id}`);
  user.roles = [...new Set(roles)];
}
