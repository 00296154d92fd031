/**
 * Branch-level auth: the integration, OAuth providers, redirect domains, users and the email
 * provider. Parse the wire body, call the domain functions of `engine/auth.ts`, render. The other
 * settings are `auth-settings.ts`'s.
 */
import { Hono, type Context } from "hono";
import { AuthDisableRequestSchema, AuthDomainCreateRequestSchema, AuthDomainDeleteRequestSchema, AuthEnableRequestSchema, AuthUserCreateRequestSchema, EmailServerUpdateRequestSchema, OAuthProviderCreateRequestSchema, OAuthProviderUpdateRequestSchema } from "../../api/wire/index.js";
import {
  addAuthDomain,
  addOAuthProvider,
  createAuthUser,
  deleteAuthUser,
  disableAuth,
  enableAuth,
  findAuth,
  findOAuthProvider,
  removeAuthDomains,
  removeOAuthProvider,
  updateEmailServer,
  updateOAuthProvider,
} from "../engine/auth.js";
import { isoTime } from "../engine/clock.js";
import { authUrls } from "../engine/service-urls.js";
import type { EmulatorEnv } from "../http/env.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { AuthRec, BranchRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";

function authUrlFields(world: World, project: ProjectRec, branch: BranchRec, db: string): { base_url: string; jwks_url: string } {
  const urls = authUrls(world, project, branch, db);
  return { base_url: urls.baseUrl, jwks_url: urls.jwksUrl };
}

/** An OAuth provider record -> wire. */
export function providerView(p: { id: string; type: string; clientId?: string; clientSecret?: string }) {
  return { id: p.id, type: p.type, ...(p.clientId !== undefined ? { client_id: p.clientId } : {}), ...(p.clientSecret !== undefined ? { client_secret: p.clientSecret } : {}) };
}

/** The AuthCredentials body of an integration (keys set only for `stack`). */
export function authCredentialsView(world: World, project: ProjectRec, branch: BranchRec, auth: AuthRec): Record<string, string> {
  const urls = authUrlFields(world, project, branch, auth.databaseName);
  return {
    auth_provider: auth.provider,
    auth_provider_project_id: auth.providerProjectId,
    pub_client_key: auth.pubClientKey,
    secret_server_key: auth.secretServerKey,
    jwks_url: urls.jwks_url,
    schema_name: "svc_auth",
    table_name: "users_sync",
    base_url: urls.base_url,
  };
}

/** The email provider settings as `GET …/email_provider` reads them. */
export function emailProviderView(auth: AuthRec): AuthRec["emailServer"] {
  return { ...auth.emailServer, password: auth.emailServer.password ?? "" };
}

/** Routes of the branch auth group. */
export function authRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/auth";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c);
  const enabled = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec; auth: AuthRec } => {
    const { project, branch } = scope(c);
    return { project, branch, auth: findAuth(branch) };
  };

  r.get(base, (c) => {
    const { project, branch, auth } = enabled(c);
    return c.json({
      auth_provider: auth.provider,
      auth_provider_project_id: auth.providerProjectId,
      branch_id: branch.id,
      db_name: auth.databaseName,
      created_at: isoTime(auth.createdAt),
      owned_by: auth.ownedBy,
      ...(auth.transferStatus !== undefined ? { transfer_status: auth.transferStatus } : {}),
      ...authUrlFields(rt.world, project, branch, auth.databaseName),
      name: project.name,
    });
  });

  r.post(base, async (c) => {
    const { project, branch } = scope(c);
    const body = await readJson(c, AuthEnableRequestSchema);
    return c.json(authCredentialsView(rt.world, project, branch, enableAuth(rt.world, branch, body)), 201);
  });

  r.delete(base, async (c) => {
    const { branch } = enabled(c);
    await readJson(c, AuthDisableRequestSchema, { optional: true });
    disableAuth(branch);
    return c.json({});
  });

  r.get(`${base}/oauth_providers`, (c) => {
    const { auth } = enabled(c);
    return c.json({ providers: [...auth.oauthProviders.values()].map(providerView) });
  });

  r.post(`${base}/oauth_providers`, async (c) => {
    const { branch, auth } = enabled(c);
    const body = await readJson(c, OAuthProviderCreateRequestSchema);
    return c.json(providerView(addOAuthProvider(branch, auth, body)));
  });

  r.patch(`${base}/oauth_providers/:oauth_provider_id`, async (c) => {
    const { branch, auth } = enabled(c);
    const provider = findOAuthProvider(branch, auth, c.req.param("oauth_provider_id"));
    const body = await readJson(c, OAuthProviderUpdateRequestSchema);
    return c.json(providerView(updateOAuthProvider(provider, body)));
  });

  r.delete(`${base}/oauth_providers/:oauth_provider_id`, (c) => {
    const { branch, auth } = enabled(c);
    removeOAuthProvider(branch, auth, c.req.param("oauth_provider_id"));
    return c.json({});
  });

  r.get(`${base}/domains`, (c) => {
    const { auth } = enabled(c);
    return c.json({ domains: auth.domains.map((d) => ({ domain: d.domain, auth_provider: d.authProvider })) });
  });

  r.post(`${base}/domains`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, AuthDomainCreateRequestSchema);
    addAuthDomain(auth, body.domain, body.auth_provider);
    return c.json({}, 201);
  });

  r.delete(`${base}/domains`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, AuthDomainDeleteRequestSchema);
    removeAuthDomains(auth, body.domains.map((d) => d.domain));
    return c.json({});
  });

  r.post(`${base}/users`, async (c) => {
    const { branch, auth } = enabled(c);
    const body = await readJson(c, AuthUserCreateRequestSchema);
    const user = createAuthUser(rt.world, branch, auth, { email: body.email, ...(body.name !== undefined ? { name: body.name } : {}) });
    return c.json({ id: user.id }, 201);
  });

  r.delete(`${base}/users/:auth_user_id`, (c) => {
    const { branch, auth } = enabled(c);
    deleteAuthUser(branch, auth, c.req.param("auth_user_id"));
    return c.json({});
  });

  r.get(`${base}/email_provider`, (c) => {
    const { auth } = enabled(c);
    return c.json(emailProviderView(auth));
  });

  r.patch(`${base}/email_provider`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, EmailServerUpdateRequestSchema, { optional: true });
    updateEmailServer(auth, body);
    return c.json({ ...auth.emailServer, password: "" });
  });

  return r;
}
