/** Store records -> wire shapes of the management API. The only place records are turned into JSON bodies. */
import type { Branch, Database, Deployment, Endpoint, FunctionRecord, Operation, Project, Role, Snapshot, Trigger, CustomDomain, CredentialMeta, Bucket } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { nextCronRun } from "../engine/cron-next.js";
import type { BranchRec, BucketRec, CredentialRec, DatabaseRec, DeploymentRec, DomainRec, EndpointRec, FunctionRec, OperationRec, ProjectRec, RoleRec, SnapshotRec, TriggerRec } from "../store/records.js";
import type { World } from "../store/world.js";

/** Operation record -> wire. */
export function operationView(op: OperationRec): Operation {
  return {
    id: op.id,
    project_id: op.projectId,
    ...(op.branchId !== undefined ? { branch_id: op.branchId } : {}),
    ...(op.endpointId !== undefined ? { endpoint_id: op.endpointId } : {}),
    action: op.action,
    status: op.status,
    ...(op.error !== undefined ? { error: op.error } : {}),
    failures_count: op.failuresCount,
    created_at: isoTime(op.createdAt),
    updated_at: isoTime(op.updatedAt),
    total_duration_ms: op.totalDurationMs,
  };
}

/** Project record -> wire (`full` adds the owner and the consumption block). */
export function projectView(world: World, p: ProjectRec, full = true): Project {
  const owner = world.users.get(p.ownerId);
  const plan = world.planOf(p);
  const base: Project = {
    id: p.id,
    name: p.name,
    region_id: p.regionId,
    pg_version: p.pgVersion,
    platform_id: "aws",
    provisioner: p.provisioner,
    proxy_host: world.proxyHost(p.regionId),
    store_passwords: p.storePasswords,
    history_retention_seconds: p.historyRetentionSeconds,
    branch_logical_size_limit: 512000,
    branch_logical_size_limit_bytes: 512000 * 1024 * 1024,
    creation_source: "console",
    owner_id: p.ownerId,
    ...(p.orgId !== undefined ? { org_id: p.orgId } : {}),
    default_endpoint_settings: { ...p.defaultEndpointSettings },
    settings: { ...p.settings },
    cpu_used_sec: 0,
    active_time: 0,
    created_at: isoTime(p.createdAt),
    updated_at: isoTime(p.updatedAt),
  };
  if (!full) return base;
  return {
    ...base,
    ...(owner !== undefined ? { owner: { name: owner.name, email: owner.email, branches_limit: branchesLimit(plan), subscription_type: plan } } : {}),
    data_storage_bytes_hour: 0,
    data_transfer_bytes: 0,
    written_data_bytes: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    consumption_period_start: isoTime(p.createdAt),
    consumption_period_end: isoTime(p.createdAt + 30 * 24 * 3600 * 1000),
  };
}

function branchesLimit(plan: string): number {
  return plan === "free" ? 10 : 5000;
}

/** Branch record -> wire. */
export function branchView(b: BranchRec, pendingState?: string): Branch {
  return {
    id: b.id,
    project_id: b.projectId,
    name: b.name,
    ...(b.parentId !== undefined ? { parent_id: b.parentId } : {}),
    ...(b.parentLsn !== undefined ? { parent_lsn: b.parentLsn } : {}),
    ...(b.parentTimestamp !== undefined ? { parent_timestamp: isoTime(b.parentTimestamp) } : {}),
    current_state: b.currentState,
    ...(pendingState !== undefined ? { pending_state: pendingState } : {}),
    state_changed_at: isoTime(b.stateChangedAt),
    default: b.isDefault,
    primary: b.isDefault,
    protected: b.protected,
    creation_source: "console",
    logical_size: 30 * 1024 * 1024,
    cpu_used_sec: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    created_at: isoTime(b.createdAt),
    updated_at: isoTime(b.updatedAt),
    ...(b.expiresAt !== undefined ? { expires_at: isoTime(b.expiresAt) } : {}),
    ...(b.lastResetAt !== undefined ? { last_reset_at: isoTime(b.lastResetAt) } : {}),
    init_source: b.initSource,
  };
}

/** Snapshot record -> wire. */
export function snapshotView(s: SnapshotRec): Snapshot {
  return {
    id: s.id,
    name: s.name,
    source_branch_id: s.sourceBranchId,
    lsn: s.lsn,
    timestamp: isoTime(s.timestamp),
    created_at: isoTime(s.createdAt),
    ...(s.expiresAt !== undefined ? { expires_at: isoTime(s.expiresAt) } : {}),
    manual: true,
  };
}

/** The platform's host names of an endpoint: `<id>.<proxy>` and `<id>-pooler.<proxy>` (they resolve nowhere locally). */
export function platformEndpointHosts(world: World, project: ProjectRec, e: EndpointRec): { host: string; pooler_host: string } {
  const proxy = world.proxyHost(project.regionId);
  return { host: `${e.id}.${proxy}`, pooler_host: `${e.id}-pooler.${proxy}` };
}

/** Endpoint record -> wire; `hosts` are the runtime's (connectable with real databases). */
export function endpointView(world: World, project: ProjectRec, e: EndpointRec, hosts: { host: string }): Endpoint {
  const proxy = world.proxyHost(project.regionId);
  return {
    id: e.id,
    project_id: e.projectId,
    branch_id: e.branchId,
    region_id: project.regionId,
    host: hosts.host,
    ...(e.name !== undefined ? { name: e.name } : {}),
    type: e.type,
    current_state: e.currentState,
    ...(e.pendingState !== undefined ? { pending_state: e.pendingState } : {}),
    autoscaling_limit_min_cu: e.minCu,
    autoscaling_limit_max_cu: e.maxCu,
    suspend_timeout_seconds: e.suspendTimeoutSeconds,
    settings: { ...e.settings },
    provisioner: e.provisioner,
    creation_source: "console",
    pooler_enabled: e.poolerEnabled,
    pooler_mode: e.poolerMode,
    disabled: e.disabled,
    passwordless_access: true,
    proxy_host: proxy,
    created_at: isoTime(e.createdAt),
    updated_at: isoTime(e.updatedAt),
    ...(e.startedAt !== undefined ? { started_at: isoTime(e.startedAt) } : {}),
    ...(e.suspendedAt !== undefined ? { suspended_at: isoTime(e.suspendedAt) } : {}),
  };
}

/** Role record -> wire; the password only where the route returns it. */
export function roleView(branchId: string, r: RoleRec, withPassword = false): Role {
  return {
    branch_id: branchId,
    name: r.name,
    ...(withPassword ? { password: r.password } : {}),
    protected: r.protected,
    authentication_method: r.noLogin ? "no_login" : "password",
    created_at: isoTime(r.createdAt),
    updated_at: isoTime(r.updatedAt),
  };
}

/** Database record -> wire. */
export function databaseView(branchId: string, d: DatabaseRec): Database {
  return { id: d.id, branch_id: branchId, name: d.name, owner_name: d.ownerName, created_at: isoTime(d.createdAt), updated_at: isoTime(d.updatedAt) };
}

/** Bucket record -> wire. */
export function bucketView(b: BucketRec): Bucket {
  return { name: b.name, access_level: b.accessLevel, created_at: isoTime(b.createdAt) };
}

/** Deployment record -> wire (environment names only, sorted). */
export function deploymentView(d: DeploymentRec): Deployment {
  return {
    id: d.id,
    status: d.status,
    memory_mib: d.memoryMib,
    runtime: d.runtime,
    created_at: isoTime(d.createdAt),
    environment: [...d.environment.keys()].sort(),
    ...(d.error !== undefined ? { error: d.error } : {}),
  };
}

/** Function record -> wire. */
export function functionView(world: World, project: ProjectRec, branch: BranchRec, f: FunctionRec): FunctionRecord {
  const current = f.deployments.at(-1);
  const active = f.deployments.findLast((d) => d.status === "completed");
  const currentView = current !== undefined ? deploymentView(current) : undefined;
  // Once the latest deployment is built it is both: its view is made once (listings hold hundreds).
  const activeView = active === undefined ? undefined : active === current ? currentView : deploymentView(active);
  return {
    id: f.id,
    slug: f.slug,
    name: f.name,
    created_at: isoTime(f.createdAt),
    invocation_url: world.invocationUrl(project, branch, f),
    ...(currentView !== undefined ? { current_deployment: currentView } : {}),
    ...(activeView !== undefined ? { active_deployment: activeView } : {}),
  };
}

function nextRunAt(cron: string, now: number): string | null {
  const next = nextCronRun(cron, now);
  return next === null ? null : isoTime(next);
}

/** Trigger record -> wire. */
export function triggerView(t: TriggerRec, now: number): Trigger {
  const base: Trigger = {
    type: t.type,
    trigger_id: t.id,
    function_slug: t.functionSlug,
    name: t.name,
    function_path: t.functionPath,
    enabled: t.enabled,
    version: t.version,
    inherited: t.inherited,
  };
  if (t.type === "schedule") return { ...base, schedule: { cron: t.cron ?? "" }, next_run_at: t.enabled ? nextRunAt(t.cron ?? "", now) : null };
  return { ...base, storage_object_created: { bucket_name: t.bucketName ?? "", ...(t.prefix !== undefined && t.prefix !== "" ? { prefix: t.prefix } : {}) } };
}

/** Domain registration -> wire. */
export function domainView(d: DomainRec, now: number): CustomDomain {
  const active = now >= d.activeAt;
  return {
    domain: d.domain,
    entity_type: d.entityType,
    entity_id: d.entityId,
    cname_target: d.cnameTarget,
    status: active ? "active" : "pending",
    dns_status: active ? "ok" : "pending",
    binding_status: "present",
  };
}

/** Credential record -> metadata (never secrets). */
export function credentialMetaView(branchId: string, c: CredentialRec): CredentialMeta {
  return {
    token_id: c.tokenId,
    token_id_short: c.tokenId.slice(9, 21),
    ...(c.name !== undefined ? { name: c.name } : {}),
    scopes: [...c.scopes],
    branch_id: branchId,
    principal_type: c.principalType,
    created_at: isoTime(c.createdAt),
    ...(c.expiresAt !== undefined ? { expires_at: isoTime(c.expiresAt) } : {}),
    ...(c.revokedAt !== undefined ? { revoked_at: isoTime(c.revokedAt) } : {}),
  };
}
