/**
 * The state document: the whole world as JSON for tests and debugging.
 * Secrets (role passwords, credential secrets, auth keys, OAuth client secrets, email passwords)
 * are redacted unless `secrets` is true; key hashes appear as `sha256:<hex>`, never tokens.
 */
import { isoTime } from "./engine/clock.js";
import type { BranchRec, ProjectRec } from "./store/records.js";
import type { World } from "./store/world.js";

/** The state document (JSON-safe). */
export type StateDocument = Record<string, unknown>;

const REDACTED = "[redacted]";

function branchDoc(b: BranchRec, secrets: boolean): Record<string, unknown> {
  const secret = (v: string | undefined): string | undefined => (v === undefined ? undefined : secrets ? v : REDACTED);
  return {
    id: b.id,
    name: b.name,
    parent_id: b.parentId,
    default: b.isDefault,
    protected: b.protected,
    current_state: b.currentState,
    expires_at: b.expiresAt !== undefined ? isoTime(b.expiresAt) : undefined,
    created_at: isoTime(b.createdAt),
    roles: [...b.roles.values()].map((r) => ({ name: r.name, password: secret(r.password), no_login: r.noLogin })),
    databases: [...b.databases.values()].map((d) => ({ id: d.id, name: d.name, owner_name: d.ownerName })),
    buckets: [...b.buckets.values()].map((k) => ({ name: k.name, access_level: k.accessLevel, inherited: k.inherited, objects: [...k.objects.values()].map((o) => ({ key: o.key, size: o.size, etag: o.etag })) })),
    functions: [...b.functions.values()].map((f) => ({
      slug: f.slug,
      name: f.name,
      inherited: f.inherited,
      deployments: f.deployments.map((d) => ({ id: d.id, status: d.status, runtime: d.runtime, zip_sha256: d.zipSha256, error: d.error, environment: Object.fromEntries([...d.environment].map(([k, v]) => [k, secrets ? v : REDACTED])) })),
    })),
    triggers: [...b.triggers.values()].map((t) => ({ trigger_id: t.id, type: t.type, name: t.name, function_slug: t.functionSlug, enabled: t.enabled, inherited: t.inherited, cron: t.cron, bucket_name: t.bucketName, prefix: t.prefix })),
    credentials: [...b.credentials.values()].map((c) => ({ token_id: c.tokenId, name: c.name, scopes: c.scopes, api_token: secret(c.apiToken), s3_secret_access_key: secret(c.s3SecretAccessKey), revoked_at: c.revokedAt !== undefined ? isoTime(c.revokedAt) : undefined })),
    data_api: [...b.dataApi.values()].map((d) => ({ database: d.database, settings: d.settings })),
    auth:
      b.auth === undefined
        ? null
        : {
            auth_provider: b.auth.provider,
            database_name: b.auth.databaseName,
            secret_server_key: secret(b.auth.secretServerKey),
            oauth_providers: [...b.auth.oauthProviders.values()].map((p) => ({ id: p.id, type: p.type, client_id: p.clientId, client_secret: secret(p.clientSecret) })),
            domains: b.auth.domains,
            users: [...b.auth.users.values()],
            email_provider: { ...b.auth.emailServer, password: secret(b.auth.emailServer.password) },
          },
  };
}

function projectDoc(world: World, p: ProjectRec, secrets: boolean): Record<string, unknown> {
  return {
    id: p.id,
    name: p.name,
    region_id: p.regionId,
    pg_version: p.pgVersion,
    owner_id: p.ownerId,
    org_id: p.orgId,
    store_passwords: p.storePasswords,
    history_retention_seconds: p.historyRetentionSeconds,
    deleted: p.deletedAt !== undefined,
    deleted_at: p.deletedAt !== undefined ? isoTime(p.deletedAt) : undefined,
    recoverable_until: p.recoverableUntil !== undefined ? isoTime(p.recoverableUntil) : undefined,
    permissions: p.permissions.map((perm) => ({ id: perm.id, email: perm.email, granted_at: isoTime(perm.grantedAt), revoked_at: perm.revokedAt !== undefined ? isoTime(perm.revokedAt) : undefined })),
    member_roles: [...p.memberRoles].map(([userId, role]) => ({ user_id: userId, role })),
    advisor_issues: p.advisorIssues.map((a) => ({ ...a, branch_id: a.branchId, branchId: undefined })),
    created_at: isoTime(p.createdAt),
    branches: [...p.branches.values()].map((b) => branchDoc(b, secrets)),
    endpoints: [...p.endpoints.values()].map((e) => ({ id: e.id, branch_id: e.branchId, name: e.name, type: e.type, current_state: e.currentState, pending_state: e.pendingState, min_cu: e.minCu, max_cu: e.maxCu, suspend_timeout_seconds: e.suspendTimeoutSeconds, disabled: e.disabled })),
    operations: p.operations.map((o) => ({ id: o.id, action: o.action, status: o.status, branch_id: o.branchId, endpoint_id: o.endpointId })),
    plan: world.planOf(p),
  };
}

/** Builds the state document. */
export function buildStateDocument(world: World, secrets: boolean): StateDocument {
  const now = world.now();
  const doc = {
    format: "svc-emulator-state",
    version: 1,
    now: isoTime(now),
    clock_mode: world.clock.mode,
    regions: world.regions.map((r) => ({ region_id: r.id, name: r.name, platform_features: r.features })),
    users: [...world.users.values()].map((u) => ({ id: u.id, email: u.email, name: u.name, plan: u.plan })),
    organizations: [...world.orgs.values()].map((o) => ({ id: o.id, name: o.name, plan: o.plan, platform_features: o.platformFeatures, project_role_management: o.projectRoleManagement, member_default_project_role: o.memberDefaultProjectRole, members: [...o.members].map(([id, role]) => ({ user_id: id, role })) })),
    api_keys: [...world.keysById.values()].map((k) => ({ id: k.id, name: k.name, kind: k.kind, account_id: k.accountId, project_id: k.projectId, admin: k.admin, revoked: k.revoked, hash: `sha256:${k.hash}` })),
    projects: [...world.projects.values()].map((p) => projectDoc(world, p, secrets)),
    domains: [...world.domains.values()].map((d) => ({ domain: d.domain, project_id: d.projectId, branch_id: d.branchId, entity_id: d.entityId })),
    operations_in_flight: [...world.projects.values()].flatMap((p) => p.operations.filter((o) => p.inFlight.has(o.id)).map((o) => ({ id: o.id, project_id: p.id, action: o.action, status: o.status }))),
  };
  return JSON.parse(JSON.stringify(doc)) as StateDocument;
}
