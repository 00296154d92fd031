/**
 * Branch-level auth: enabling the integration on a database of the branch, its OAuth
 * providers (a tenant id only for microsoft), redirect domains (no duplicates), users (one per
 * email, case-insensitively) and the email server settings.
 */
import type { AuthEnableRequest, EmailServerUpdateRequest, OAuthProviderCreateRequest, OAuthProviderUpdateRequest } from "../../api/wire/index.js";
import type { AuthRec, BranchRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** An OAuth provider record of an integration. */
export type OAuthProviderRec = AuthRec["oauthProviders"] extends Map<string, infer P> ? P : never;

/** An auth user record of an integration. */
export type AuthUserRec = AuthRec["users"] extends Map<string, infer U> ? U : never;

/** The branch's auth integration, or `not_found` saying how to enable it. */
export function findAuth(branch: BranchRec): AuthRec {
  if (branch.auth === undefined) throw new RuleError("not_found", `auth is not enabled on branch ${branch.id}; enable it with POST …/branches/${branch.id}/auth`);
  return branch.auth;
}

/** Enables auth on a database of the branch (default: its first); `stack` integrations get keys. */
export function enableAuth(world: World, branch: BranchRec, input: AuthEnableRequest): AuthRec {
  const db = input.database_name ?? [...branch.databases.keys()][0];
  if (db === undefined || !branch.databases.has(db)) throw new RuleError("not_found", `database "${db ?? "(none)"}" not found on branch ${branch.id}; create it first`);
  if (branch.auth !== undefined) throw new RuleError("conflict", `auth is already enabled on branch ${branch.id}`, { code: "already_enabled" });
  const stack = input.auth_provider === "stack";
  const auth: AuthRec = {
    provider: input.auth_provider,
    providerProjectId: world.ids.uuid(),
    databaseName: db,
    createdAt: world.clock.now(),
    secretServerKey: stack ? `ssk_${world.ids.hex(40)}` : "",
    pubClientKey: stack ? `pck_${world.ids.hex(40)}` : "",
    oauthProviders: new Map(),
    domains: [],
    ownedBy: "neon_managed",
    users: new Map(),
    emailServer: {},
  };
  branch.auth = auth;
  return auth;
}

/** Disables auth on the branch (`not_found` when it is not enabled). */
export function disableAuth(branch: BranchRec): void {
  findAuth(branch);
  delete branch.auth;
}

function requireTenantFor(id: string, tenantId: string | undefined): void {
  if (tenantId !== undefined && id !== "microsoft") {
    throw new RuleError("invalid", "microsoft_tenant_id applies only to the microsoft provider", { field: "microsoft_tenant_id", issue: "only for microsoft" });
  }
}

/** A configured OAuth provider, or `not_found`. */
export function findOAuthProvider(branch: BranchRec, auth: AuthRec, id: string): OAuthProviderRec {
  const provider = auth.oauthProviders.get(id);
  if (provider === undefined) throw new RuleError("not_found", `OAuth provider ${id} is not configured on branch ${branch.id}`);
  return provider;
}

/** Adds an OAuth provider: `standard` with the caller's client id, `shared` without. */
export function addOAuthProvider(branch: BranchRec, auth: AuthRec, input: OAuthProviderCreateRequest): OAuthProviderRec {
  requireTenantFor(input.id, input.microsoft_tenant_id);
  if (auth.oauthProviders.has(input.id)) throw new RuleError("conflict", `OAuth provider ${input.id} is already configured on branch ${branch.id}`, { code: "already_exists" });
  const provider: OAuthProviderRec = {
    id: input.id,
    type: input.client_id !== undefined ? "standard" : "shared",
    ...(input.client_id !== undefined ? { clientId: input.client_id } : {}),
    ...(input.client_secret !== undefined ? { clientSecret: input.client_secret } : {}),
    ...(input.microsoft_tenant_id !== undefined ? { microsoftTenantId: input.microsoft_tenant_id } : {}),
  };
  auth.oauthProviders.set(provider.id, provider);
  return provider;
}

/** Updates an OAuth provider's credentials; one with a client id becomes `standard`. */
export function updateOAuthProvider(provider: OAuthProviderRec, input: OAuthProviderUpdateRequest): OAuthProviderRec {
  requireTenantFor(provider.id, input.microsoft_tenant_id);
  if (input.client_id !== undefined) provider.clientId = input.client_id;
  if (input.client_secret !== undefined) provider.clientSecret = input.client_secret;
  if (input.microsoft_tenant_id !== undefined) provider.microsoftTenantId = input.microsoft_tenant_id;
  if (provider.clientId !== undefined) provider.type = "standard";
  return provider;
}

/** Removes an OAuth provider (`not_found` when it is not configured). */
export function removeOAuthProvider(branch: BranchRec, auth: AuthRec, id: string): void {
  if (!auth.oauthProviders.delete(id)) throw new RuleError("not_found", `OAuth provider ${id} is not configured on branch ${branch.id}`);
}

/** Adds a redirect domain unless it is already listed. */
export function addAuthDomain(auth: AuthRec, domain: string, authProvider: string): void {
  if (!auth.domains.some((d) => d.domain === domain)) auth.domains.push({ domain, authProvider });
}

/** Removes the listed redirect domains (absent ones are ignored). */
export function removeAuthDomains(auth: AuthRec, domains: string[]): void {
  const remove = new Set(domains);
  auth.domains = auth.domains.filter((d) => !remove.has(d.domain));
}

/** Creates an auth user; refused when another user has the same email (ignoring case). */
export function createAuthUser(world: World, branch: BranchRec, auth: AuthRec, input: { email: string; name?: string }): AuthUserRec {
  if ([...auth.users.values()].some((u) => u.email.toLowerCase() === input.email.toLowerCase())) {
    throw new RuleError("conflict", `an auth user with email ${input.email} already exists on branch ${branch.id}`, { code: "already_exists" });
  }
  const user: AuthUserRec = { id: world.ids.uuid(), email: input.email, ...(input.name !== undefined ? { name: input.name } : {}) };
  auth.users.set(user.id, user);
  return user;
}

/** Deletes an auth user (`not_found` when absent). */
export function deleteAuthUser(branch: BranchRec, auth: AuthRec, id: string): void {
  if (!auth.users.delete(id)) throw new RuleError("not_found", `auth user ${id} not found on branch ${branch.id}`);
}

/** Sets the email server fields given; the others keep their values. */
export function updateEmailServer(auth: AuthRec, input: EmailServerUpdateRequest): void {
  for (const [key, value] of Object.entries(input)) if (value !== undefined) Object.assign(auth.emailServer, { [key]: value });
}
