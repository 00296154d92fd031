/**
 * API keys: personal keys belong to a user, organization keys to an organization
 * (optionally limited to one of its projects); a token is returned once at creation and stored
 * hashed; revoking is final. Organization keys are managed by organization admins only.
 */
import type { ApiKeyRec, Principal } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** Whose keys: a user's personal keys or an organization's keys. */
export interface KeyOwner {
  kind: ApiKeyRec["kind"];
  /** User id (personal) or organization id (org). */
  accountId: string;
}

/** A new key's record and its token (shown once). */
export interface CreatedApiKey {
  record: ApiKeyRec;
  token: string;
}

/** The user whose personal keys a principal manages; `forbidden` for an organization key. */
export function personalKeyOwner(principal: Principal): KeyOwner {
  if (principal.orgId !== undefined) throw new RuleError("forbidden", "/api_keys manages personal keys and needs a personal API key; use /organizations/{org_id}/api_keys for organization keys");
  return { kind: "personal", accountId: principal.userId };
}

/**
 * The organization whose keys a principal manages: `not_found` when it is not visible to the
 * principal (not its key's organization, not a member), `forbidden` unless an admin (a member
 * with the admin role, or an organization key not limited to a project).
 */
export function orgKeyOwner(world: World, principal: Principal, orgId: string): KeyOwner {
  const org = world.orgs.get(orgId);
  const visible = org !== undefined && (principal.orgId === orgId || org.members.has(principal.userId));
  if (!visible) throw new RuleError("not_found", `organization ${orgId} not found (or not visible to this API key)`);
  const isAdmin = principal.orgId === orgId ? principal.key.projectId === undefined : org.members.get(principal.userId) === "admin";
  if (!isAdmin) throw new RuleError("forbidden", `managing the API keys of organization ${orgId} needs an organization admin`);
  return { kind: "org", accountId: orgId };
}

/** The owner's unrevoked keys, in creation order. */
export function listApiKeys(world: World, owner: KeyOwner): ApiKeyRec[] {
  return [...world.keysById.values()].filter((k) => k.kind === owner.kind && k.accountId === owner.accountId && !k.revoked);
}

/** Creates a key for the owner; an organization key may be limited to one of the organization's projects (`not_found` otherwise). */
export function createApiKey(world: World, owner: KeyOwner, input: { name: string; createdBy: string; projectId?: string }): CreatedApiKey {
  if (input.projectId !== undefined && world.projects.get(input.projectId)?.orgId !== owner.accountId) {
    throw new RuleError("not_found", `project_id: project ${input.projectId} not found in organization ${owner.accountId}`);
  }
  const token = world.ids.apiKeyToken();
  const record = world.addKey(token, {
    name: input.name,
    kind: owner.kind,
    accountId: owner.accountId,
    createdBy: input.createdBy,
    ...(input.projectId !== undefined ? { projectId: input.projectId } : {}),
    admin: false,
    createdAt: world.clock.now(),
  });
  return { record, token };
}

/** Revokes the owner's key `id`; `not_found` when it is not the owner's or already revoked. */
export function revokeApiKey(world: World, owner: KeyOwner, id: number): ApiKeyRec {
  const rec = world.keysById.get(id);
  if (rec === undefined || rec.kind !== owner.kind || rec.accountId !== owner.accountId || rec.revoked) {
    throw new RuleError("not_found", `API key ${id} not found${owner.kind === "org" ? ` in organization ${owner.accountId}` : ""} (or already revoked)`);
  }
  rec.revoked = true;
  return rec;
}
