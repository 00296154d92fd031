/**
 * Creating and removing projects, branches and endpoints in the store:
 * branch creation copies the parent's roles, databases, buckets, functions and triggers; branch
 * delete cascades and releases custom domains at once.
 */
import type { BranchRec, EndpointRec, ProjectRec, RoleRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { scheduleBuild } from "./deployments.js";
import type { OperationSpec } from "./operations.js";

/** Compute options of a new endpoint (wire names already validated). */
export interface EndpointInit {
  type: "read_write" | "read_only";
  autoscaling_limit_min_cu?: number;
  autoscaling_limit_max_cu?: number;
  suspend_timeout_seconds?: number;
  settings?: Record<string, unknown>;
  provisioner?: string;
  name?: string;
  disabled?: boolean;
  pooler_enabled?: boolean;
  pooler_mode?: string;
}

/** A new project record without branches (the caller adds the default branch). */
export function newProjectRecord(world: World, init: { id?: string; name?: string; regionId: string; pgVersion: number; ownerId: string; orgId?: string; storePasswords?: boolean; historyRetentionSeconds?: number; settings?: Record<string, unknown>; defaultEndpointSettings?: ProjectRec["defaultEndpointSettings"]; provisioner?: string }): ProjectRec {
  const now = world.clock.now();
  const id = init.id ?? world.newWordId();
  world.reserveId(id);
  return {
    id,
    name: init.name ?? id,
    regionId: init.regionId,
    pgVersion: init.pgVersion,
    ownerId: init.ownerId,
    ...(init.orgId !== undefined ? { orgId: init.orgId } : {}),
    provisioner: init.provisioner ?? "k8s-pod",
    storePasswords: init.storePasswords ?? true,
    historyRetentionSeconds: init.historyRetentionSeconds ?? 86400,
    settings: init.settings ?? {},
    defaultEndpointSettings: init.defaultEndpointSettings ?? {},
    createdAt: now,
    updatedAt: now,
    permissions: [],
    memberRoles: new Map(),
    advisorIssues: [],
    branches: new Map(),
    snapshots: new Map(),
    endpoints: new Map(),
    operations: [],
    inFlight: new Set(),
  };
}

/** A new empty branch record (state `ready` unless the caller says otherwise). */
export function newBranchRecord(world: World, project: ProjectRec, init: { id?: string; name?: string; parent?: BranchRec; parentTimestamp?: number; parentLsn?: string; isDefault?: boolean; protected?: boolean; expiresAt?: number; initSource?: string; state?: string }): BranchRec {
  const now = world.clock.now();
  const id = init.id ?? world.newWordId("br-");
  world.reserveId(id);
  const branch: BranchRec = {
    id,
    projectId: project.id,
    name: init.name ?? id,
    ...(init.parent !== undefined ? { parentId: init.parent.id, parentTimestamp: init.parentTimestamp ?? now, parentLsn: init.parentLsn ?? lsnAt(now) } : {}),
    isDefault: init.isDefault ?? false,
    protected: init.protected ?? false,
    currentState: init.state ?? "ready",
    stateChangedAt: now,
    initSource: init.initSource ?? "parent-data",
    ...(init.expiresAt !== undefined ? { expiresAt: init.expiresAt } : {}),
    createdAt: now,
    updatedAt: now,
    annotation: {},
    roles: new Map(),
    databases: new Map(),
    buckets: new Map(),
    functions: new Map(),
    triggers: new Map(),
    credentials: new Map(),
    dataApi: new Map(),
  };
  if (init.parent !== undefined) copyFromParent(world, branch, init.parent);
  project.branches.set(branch.id, branch);
  if (branch.expiresAt !== undefined) scheduleExpiry(world, project, branch);
  return branch;
}

/** A plausible LSN for a point in time (`0/1A2B3C40`): it grows with the clock, as the platform's WAL position does. */
export function lsnAt(time: number): string {
  const position = BigInt(Math.max(0, Math.floor(time))) * 16n;
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The time an LSN of the emulator's clock-derived WAL stands for: the inverse of {@link lsnAt}. */
export function timeAtLsn(lsn: string): number {
  const [high = "0", low = "0"] = lsn.split("/");
  return Number(((BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`)) / 16n);
}

/** Copies what a child inherits: roles (same passwords), databases, buckets with objects, functions, triggers. */
function copyFromParent(world: World, child: BranchRec, parent: BranchRec): void {
  for (const r of parent.roles.values()) child.roles.set(r.name, { ...r });
  for (const d of parent.databases.values()) child.databases.set(d.name, { ...d });
  for (const b of parent.buckets.values()) {
    child.buckets.set(b.name, { ...b, inherited: true, objects: new Map([...b.objects].map(([k, o]) => [k, { ...o }])) });
  }
  for (const f of parent.functions.values()) {
    const deployments = f.deployments.map((d) => ({ ...d, environment: new Map(d.environment) }));
    // A copy of a deployment still building finishes on the child too.
    for (const d of deployments) scheduleBuild(world, d);
    child.functions.set(f.slug, { ...f, inherited: true, deployments });
  }
  for (const t of parent.triggers.values()) child.triggers.set(t.id, { ...t, inherited: true, enabled: false });
}

/** A new role with a fresh password. */
export function newRole(world: World, name: string, options: { noLogin?: boolean; password?: string } = {}): RoleRec {
  const now = world.clock.now();
  return { name, password: options.password ?? world.ids.base62(24), noLogin: options.noLogin ?? false, protected: false, createdAt: now, updatedAt: now };
}

/** A new endpoint (`init`, pending `active`) on a branch; defaults from the project's endpoint settings. */
export function newEndpointRecord(world: World, project: ProjectRec, branchId: string, init: EndpointInit, id?: string): EndpointRec {
  const now = world.clock.now();
  const defaults = project.defaultEndpointSettings;
  const minCu = init.autoscaling_limit_min_cu ?? defaults.autoscaling_limit_min_cu ?? 0.25;
  const endpointId = id ?? world.newWordId("ep-");
  world.reserveId(endpointId);
  const endpoint: EndpointRec = {
    id: endpointId,
    projectId: project.id,
    branchId,
    ...(init.name !== undefined ? { name: init.name } : {}),
    type: init.type,
    currentState: "init",
    pendingState: "active",
    minCu,
    maxCu: init.autoscaling_limit_max_cu ?? defaults.autoscaling_limit_max_cu ?? Math.max(minCu, 2),
    suspendTimeoutSeconds: init.suspend_timeout_seconds ?? defaults.suspend_timeout_seconds ?? 0,
    settings: init.settings ?? (defaults.pg_settings ? { pg_settings: defaults.pg_settings } : {}),
    provisioner: init.provisioner ?? project.provisioner,
    poolerEnabled: init.pooler_enabled ?? false,
    poolerMode: init.pooler_mode ?? "transaction",
    disabled: init.disabled ?? false,
    createdAt: now,
    updatedAt: now,
  };
  project.endpoints.set(endpoint.id, endpoint);
  return endpoint;
}

/** Ends a branch's creation: `ready` from now on. */
export function markBranchReady(world: World, branch: BranchRec): void {
  branch.currentState = "ready";
  branch.stateChangedAt = world.clock.now();
}

/** The `create_branch` operation of a new branch: `ready` once it finishes. */
export function createBranchSpec(world: World, branch: BranchRec): OperationSpec {
  return { action: "create_branch", branchId: branch.id, onFinish: () => markBranchReady(world, branch) };
}

/** Marks an endpoint as starting (`pending_state: active`). */
export function beginStart(endpoint: EndpointRec): void {
  endpoint.pendingState = "active";
}

/** Ends a start: `active` on success, `idle` when the operation failed. */
export function finishStart(world: World, endpoint: EndpointRec, failed: boolean): void {
  const now = world.clock.now();
  delete endpoint.pendingState;
  endpoint.currentState = failed ? "idle" : "active";
  if (!failed) endpoint.startedAt = now;
  endpoint.updatedAt = now;
}

/** Ends a suspend: `idle` on success, `active` when the operation failed. */
export function finishSuspend(world: World, endpoint: EndpointRec, failed: boolean): void {
  const now = world.clock.now();
  delete endpoint.pendingState;
  endpoint.currentState = failed ? "active" : "idle";
  if (!failed) endpoint.suspendedAt = now;
  endpoint.updatedAt = now;
}

/** Removes a branch and everything on it; custom domains are released, credentials revoked. */
export function removeBranch(world: World, project: ProjectRec, branch: BranchRec): void {
  for (const ep of [...project.endpoints.values()]) if (ep.branchId === branch.id) project.endpoints.delete(ep.id);
  for (const [domain, rec] of [...world.domains]) if (rec.projectId === project.id && rec.branchId === branch.id) world.domains.delete(domain);
  const now = world.clock.now();
  for (const c of branch.credentials.values()) c.revokedAt ??= now;
  project.branches.delete(branch.id);
}

/** Schedules the deletion of a branch at its `expires_at` (no operations). */
export function scheduleExpiry(world: World, project: ProjectRec, branch: BranchRec): void {
  const at = branch.expiresAt;
  if (at === undefined) return;
  world.scheduler.at(
    at,
    () => {
      const current = project.branches.get(branch.id);
      if (current === undefined || current.expiresAt !== at || current.isDefault) return;
      const hasChildren = [...project.branches.values()].some((b) => b.parentId === branch.id);
      if (!hasChildren) removeBranch(world, project, current);
    },
    false,
  );
}
