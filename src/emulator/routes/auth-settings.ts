/**
 * The settings of a branch's auth integration at record level: email and password sign-in,
 * localhost redirects, the plugins (all at once, and the organization, magic-link and
 * phone-number ones each), the webhook, and user roles. Every route needs the integration (404
 * saying how to enable it). Parse the wire body, call `engine/auth-settings.ts`, render.
 */
import { Hono, type Context } from "hono";
import {
  AllowLocalhostSchema,
  AuthUserRoleRequestSchema,
  AuthWebhookSchema,
  EmailAndPasswordUpdateRequestSchema,
  MagicLinkPluginUpdateRequestSchema,
  OrganizationPluginUpdateRequestSchema,
  PhoneNumberPluginUpdateRequestSchema,
} from "../../api/wire/index.js";
import { findAuth } from "../engine/auth.js";
import {
  authSettings,
  replaceWebhook,
  setAllowLocalhost,
  setAuthUserRoles,
  updateEmailAndPassword,
  updateMagicLinkPlugin,
  updateOrganizationPlugin,
  updatePhoneNumberPlugin,
} from "../engine/auth-settings.js";
import type { EmulatorEnv } from "../http/env.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { AuthRec, BranchRec } from "../store/records.js";
import { emailProviderView, providerView } from "./auth.js";

/** Copies the fields a PATCH body gave (zod leaves the omitted ones `undefined`). */
function given<T extends object>(body: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<{ [K in keyof T]: Exclude<T[K], undefined> }>;
}

/** Routes of the auth settings. */
export function authSettingsRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/auth";
  const enabled = (c: Context<EmulatorEnv>): { branch: BranchRec; auth: AuthRec } => {
    rt.world.now();
    const { branch } = branchFromPath(rt.world, c);
    return { branch, auth: findAuth(branch) };
  };

  r.get(`${base}/email_and_password`, (c) => c.json(authSettings(enabled(c).auth).emailAndPassword));
  r.patch(`${base}/email_and_password`, async (c) => {
    const { auth } = enabled(c);
    return c.json(updateEmailAndPassword(auth, given(await readJson(c, EmailAndPasswordUpdateRequestSchema, { optional: true }))));
  });

  r.get(`${base}/allow_localhost`, (c) => c.json({ allow_localhost: authSettings(enabled(c).auth).allowLocalhost }));
  r.patch(`${base}/allow_localhost`, async (c) => {
    const { auth } = enabled(c);
    return c.json({ allow_localhost: setAllowLocalhost(auth, (await readJson(c, AllowLocalhostSchema)).allow_localhost) });
  });

  r.get(`${base}/webhooks`, (c) => c.json(authSettings(enabled(c).auth).webhook));
  r.put(`${base}/webhooks`, async (c) => {
    const { auth } = enabled(c);
    return c.json(replaceWebhook(auth, await readJson(c, AuthWebhookSchema)));
  });

  r.get(`${base}/plugins`, (c) => {
    const { auth } = enabled(c);
    const settings = authSettings(auth);
    return c.json({
      organization: settings.organization,
      magic_link: settings.magicLink,
      phone_number: settings.phoneNumber,
      email_provider: emailProviderView(auth),
      email_and_password: settings.emailAndPassword,
      oauth_providers: [...auth.oauthProviders.values()].map(providerView),
      allow_localhost: settings.allowLocalhost,
    });
  });
  r.get(`${base}/plugins/phone-number`, (c) => c.json(authSettings(enabled(c).auth).phoneNumber));
  r.patch(`${base}/plugins/phone-number`, async (c) => {
    const { auth } = enabled(c);
    return c.json(updatePhoneNumberPlugin(auth, given(await readJson(c, PhoneNumberPluginUpdateRequestSchema, { optional: true }))));
  });
  r.patch(`${base}/plugins/magic-link`, async (c) => {
    const { auth } = enabled(c);
    return c.json(updateMagicLinkPlugin(auth, given(await readJson(c, MagicLinkPluginUpdateRequestSchema, { optional: true }))));
  });
  r.patch(`${base}/plugins/organization`, async (c) => {
    const { auth } = enabled(c);
    return c.json(updateOrganizationPlugin(auth, given(await readJson(c, OrganizationPluginUpdateRequestSchema, { optional: true }))));
  });

  r.put(`${base}/users/:auth_user_id/role`, async (c) => {
    const { branch, auth } = enabled(c);
    const body = await readJson(c, AuthUserRoleRequestSchema);
    const id = c.req.param("auth_user_id");
    setAuthUserRoles(branch, auth, id, body.roles);
    return c.json({ id });
  });

  return r;
}
