/**
 * Branch-level auth (api.md §8): the integration, OAuth providers, redirect domains, users and
 * the email provider. Other auth settings routes of the index answer 501.
 */
import { Hono, type Context } from "hono";
import { AuthDisableRequestSchema, AuthDomainCreateRequestSchema, AuthDomainDeleteRequestSchema, AuthEnableRequestSchema, AuthUserCreateRequestSchema, EmailServerUpdateRequestSchema, OAuthProviderCreateRequestSchema, OAuthProviderUpdateRequestSchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { AuthRec, BranchRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";

function authUrls(world: World, project: ProjectRec, branch: BranchRec, db: string): { base_url: string; jwks_url: string } {
  const ep = [...project.endpoints.values()].find((e) => e.branchId === branch.id && e.type === "read_write");
  const host = `${ep?.id ?? branch.id}.auth.${world.proxyHost(project.regionId)}`;
  return { base_url: `https://${host}/${db}/auth`, jwks_url: `https://${host}/${db}/auth/.well-known/jwks.json` };
}

function providerView(p: { id: string; type: string; clientId?: string; clientSecret?: string }) {
  return { id: p.id, type: p.type, ...(p.clientId !== undefined ? { client_id: p.clientId } : {}), ...(p.clientSecret !== undefined ? { client_secret: p.clientSecret } : {}) };
}

/** The AuthCredentials body of an integration (keys set only for `stack`). */
export function authCredentialsView(world: World, project: ProjectRec, branch: BranchRec, auth: AuthRec): Record<string, string> {
  const urls = authUrls(world, project, branch, auth.databaseName);
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

/** Routes of the branch auth group. */
export function authRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/auth";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c);
  const enabled = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec; auth: AuthRec } => {
    const { project, branch } = scope(c);
    if (branch.auth === undefined) throw notFound(`auth is not enabled on branch ${branch.id}; enable it with POST …/branches/${branch.id}/auth`);
    return { project, branch, auth: branch.auth };
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
      ...authUrls(rt.world, project, branch, auth.databaseName),
      name: project.name,
    });
  });

  r.post(base, async (c) => {
    const { project, branch } = scope(c);
    const body = await readJson(c, AuthEnableRequestSchema);
    const db = body.database_name ?? [...branch.databases.keys()][0];
    if (db === undefined || !branch.databases.has(db)) throw notFound(`database "${db ?? "(none)"}" not found on branch ${branch.id}; create it first`);
    if (branch.auth !== undefined) throw conflict(`auth is already enabled on branch ${branch.id}`, "already_enabled");
    const stack = body.auth_provider === "stack";
    const auth: AuthRec = {
      provider: body.auth_provider,
      providerProjectId: rt.world.ids.uuid(),
      databaseName: db,
      createdAt: rt.world.clock.now(),
      secretServerKey: stack ? `ssk_${rt.world.ids.hex(40)}` : "",
      pubClientKey: stack ? `pck_${rt.world.ids.hex(40)}` : "",
      oauthProviders: new Map(),
      domains: [],
      ownedBy: "neon_managed",
      users: new Map(),
      emailServer: {},
    };
    branch.auth = auth;
    return c.json(authCredentialsView(rt.world, project, branch, auth), 201);
  });

  r.delete(base, async (c) => {
    const { branch } = enabled(c);
    await readJson(c, AuthDisableRequestSchema, { optional: true });
    delete branch.auth;
    return c.json({});
  });

  r.get(`${base}/oauth_providers`, (c) => {
    const { auth } = enabled(c);
    return c.json({ providers: [...auth.oauthProviders.values()].map(providerView) });
  });

  r.post(`${base}/oauth_providers`, async (c) => {
    const { branch, auth } = enabled(c);
    const body = await readJson(c, OAuthProviderCreateRequestSchema);
    if (body.microsoft_tenant_id !== undefined && body.id !== "microsoft") throw badRequest("microsoft_tenant_id applies only to the microsoft provider", [{ path: "microsoft_tenant_id", message: "only for microsoft" }]);
    if (auth.oauthProviders.has(body.id)) throw conflict(`OAuth provider ${body.id} is already configured on branch ${branch.id}`, "already_exists");
    const provider = {
      id: body.id,
      type: body.client_id !== undefined ? "standard" : "shared",
      ...(body.client_id !== undefined ? { clientId: body.client_id } : {}),
      ...(body.client_secret !== undefined ? { clientSecret: body.client_secret } : {}),
      ...(body.microsoft_tenant_id !== undefined ? { microsoftTenantId: body.microsoft_tenant_id } : {}),
    };
    auth.oauthProviders.set(provider.id, provider);
    return c.json(providerView(provider));
  });

  r.patch(`${base}/oauth_providers/:oauth_provider_id`, async (c) => {
    const { branch, auth } = enabled(c);
    const id = c.req.param("oauth_provider_id");
    const provider = auth.oauthProviders.get(id);
    if (provider === undefined) throw notFound(`OAuth provider ${id} is not configured on branch ${branch.id}`);
    const body = await readJson(c, OAuthProviderUpdateRequestSchema);
    if (body.microsoft_tenant_id !== undefined && id !== "microsoft") throw badRequest("microsoft_tenant_id applies only to the microsoft provider", [{ path: "microsoft_tenant_id", message: "only for microsoft" }]);
    if (body.client_id !== undefined) provider.clientId = body.client_id;
    if (body.client_secret !== undefined) provider.clientSecret = body.client_secret;
    if (body.microsoft_tenant_id !== undefined) provider.microsoftTenantId = body.microsoft_tenant_id;
    if (provider.clientId !== undefined) provider.type = "standard";
    return c.json(providerView(provider));
  });

  r.delete(`${base}/oauth_providers/:oauth_provider_id`, (c) => {
    const { branch, auth } = enabled(c);
    const id = c.req.param("oauth_provider_id");
    if (!auth.oauthProviders.delete(id)) throw notFound(`OAuth provider ${id} is not configured on branch ${branch.id}`);
    return c.json({});
  });

  r.get(`${base}/domains`, (c) => {
    const { auth } = enabled(c);
    return c.json({ domains: auth.domains.map((d) => ({ domain: d.domain, auth_provider: d.authProvider })) });
  });

  r.post(`${base}/domains`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, AuthDomainCreateRequestSchema);
    if (!auth.domains.some((d) => d.domain === body.domain)) auth.domains.push({ domain: body.domain, authProvider: body.auth_provider });
    return c.json({}, 201);
  });

  r.delete(`${base}/domains`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, AuthDomainDeleteRequestSchema);
    const remove = new Set(body.domains.map((d) => d.domain));
    auth.domains = auth.domains.filter((d) => !remove.has(d.domain));
    return c.json({});
  });

  r.post(`${base}/users`, async (c) => {
    const { branch, auth } = enabled(c);
    const body = await readJson(c, AuthUserCreateRequestSchema);
    if ([...auth.users.values()].some((u) => u.email.toLowerCase() === body.email.toLowerCase())) throw conflict(`an auth user with email ${body.email} already exists on branch ${branch.id}`, "already_exists");
    const user = { id: rt.world.ids.uuid(), email: body.email, ...(body.name !== undefined ? { name: body.name } : {}) };
    auth.users.set(user.id, user);
    return c.json({ id: user.id }, 201);
  });

  r.delete(`${base}/users/:auth_user_id`, (c) => {
    const { branch, auth } = enabled(c);
    const id = c.req.param("auth_user_id");
    if (!auth.users.delete(id)) throw notFound(`auth user ${id} not found on branch ${branch.id}`);
    return c.json({});
  });

  r.get(`${base}/email_provider`, (c) => {
    const { auth } = enabled(c);
    return c.json({ ...auth.emailServer, password: auth.emailServer.password ?? "" });
  });

  r.patch(`${base}/email_provider`, async (c) => {
    const { auth } = enabled(c);
    const body = await readJson(c, EmailServerUpdateRequestSchema, { optional: true });
    for (const [key, value] of Object.entries(body)) if (value !== undefined) Object.assign(auth.emailServer, { [key]: value });
    return c.json({ ...auth.emailServer, password: "" });
  });

  return r;
}
