/**
 * Projects: which projects a principal lists (its own, an organization's, the
 * recoverable ones, those shared with its email), creating one (organization membership, known
 * region, plan limits) with its default branch, role, database and compute, updating settings,
 * and recovering a deleted one.
 */
import type { ProjectCreateRequest, ProjectUpdateRequest } from "../../api/wire/index.js";
import type { BranchRec, EndpointRec, OperationRec, Principal, ProjectRec, RoleRec } from "../store/records.js";
import { PLAN_LIMITS, type World } from "../store/world.js";
import { checkComputeRange, startComputeSpec } from "./endpoints.js";
import { markBranchReady, newBranchRecord, newEndpointRecord, newProjectRecord, newRole } from "./lifecycle.js";
import { requireUnlocked, startOperations, type OperationFailureHook, type OperationSpec } from "./operations.js";
import { recoverProject } from "./project-deletion.js";
import { RuleError } from "./rule-error.js";

/** Which projects a listing asks for. */
export interface ProjectFilter {
  orgId?: string;
  /** Deleted projects still inside their recovery window instead of live ones. */
  recoverable?: boolean;
  search?: string;
}

function matchesSearch(project: ProjectRec, search: string | undefined): boolean {
  const s = search?.toLowerCase();
  return s === undefined || project.name.toLowerCase().includes(s) || project.id.includes(s);
}

/** The projects the principal sees, in store order; an organization must be the key's own or one the user belongs to. */
export function listProjects(world: World, principal: Principal, filter: ProjectFilter): ProjectRec[] {
  if (filter.orgId !== undefined) {
    if (principal.orgId !== undefined && principal.orgId !== filter.orgId) throw new RuleError("forbidden", `this organization API key belongs to ${principal.orgId}; it cannot list projects of ${filter.orgId}`);
    const org = world.orgs.get(filter.orgId);
    if (principal.orgId === undefined && (org === undefined || !org.members.has(principal.userId))) throw new RuleError("not_found", `organization ${filter.orgId} not found (or you are not a member)`);
  }
  const now = world.clock.now();
  return [...world.projects.values()].filter((p) => {
    const deleted = p.deletedAt !== undefined;
    if (filter.recoverable === true ? !deleted || (p.recoverableUntil ?? 0) <= now : deleted) return false;
    if (world.access(principal, { ...p, deletedAt: undefined }) !== "visible") return false;
    if (filter.orgId !== undefined ? p.orgId !== filter.orgId : principal.orgId === undefined && p.orgId !== undefined) return false;
    return matchesSearch(p, filter.search);
  });
}

/** Live projects shared with the principal's email (none for an organization key). */
export function listSharedProjects(world: World, principal: Principal, search: string | undefined): ProjectRec[] {
  const email = world.users.get(principal.userId)?.email.toLowerCase();
  if (principal.orgId !== undefined || email === undefined) return [];
  return [...world.projects.values()].filter(
    (p) => p.deletedAt === undefined && p.permissions.some((perm) => perm.revokedAt === undefined && perm.email.toLowerCase() === email) && matchesSearch(p, search),
  );
}

/** A new project with what it was created with, and the operations creating it. */
export interface CreatedProject {
  project: ProjectRec;
  branch: BranchRec;
  endpoint: EndpointRec;
  role: RoleRec;
  databaseName: string;
  operations: OperationRec[];
}

function requireCreatable(world: World, principal: Principal, input: ProjectCreateRequest["project"]): { orgId: string | undefined; regionId: string } {
  const orgId = principal.orgId ?? input.org_id;
  if (principal.orgId !== undefined && input.org_id !== undefined && input.org_id !== principal.orgId) {
    throw new RuleError("forbidden", `this organization API key belongs to ${principal.orgId}; it cannot create projects in ${input.org_id}`);
  }
  if (orgId !== undefined && principal.orgId === undefined && !world.orgs.get(orgId)?.members.has(principal.userId)) {
    throw new RuleError("not_found", `organization ${orgId} not found (or you are not a member)`);
  }
  const regionId = input.region_id ?? "aws-us-east-2";
  if (!world.regions.some((reg) => reg.id === regionId)) {
    throw new RuleError("invalid", `project.region_id "${regionId}" is not a known region; GET /regions lists them`, { field: "project.region_id", issue: "unknown region" });
  }
  if (input.autoscaling_limit_min_cu !== undefined && input.autoscaling_limit_max_cu !== undefined) {
    checkComputeRange(input.autoscaling_limit_min_cu, input.autoscaling_limit_max_cu, "project");
  }
  const ownerId = orgId ?? principal.userId;
  const plan = orgId !== undefined ? (world.orgs.get(orgId)?.plan ?? "free") : (world.users.get(principal.userId)?.plan ?? "free");
  const limits = PLAN_LIMITS[plan];
  const owned = [...world.projects.values()].filter((p) => p.deletedAt === undefined && world.accountOf(p) === ownerId).length;
  if (owned >= limits.projects) throw new RuleError("forbidden", `the ${plan} plan allows ${limits.projects} projects and the account has ${owned}; delete a project or upgrade the plan`, { code: "plan_limit_exceeded" });
  if (input.history_retention_seconds !== undefined && input.history_retention_seconds > limits.historySeconds) {
    throw new RuleError("forbidden", `project.history_retention_seconds ${input.history_retention_seconds} exceeds the ${plan} plan's ${limits.historySeconds} s`, { code: "plan_limit_exceeded" });
  }
  return { orgId, regionId };
}

/** Creates a project with its default branch, owner role, database and read_write compute; starts `create_timeline` and `start_compute`. */
export function createProject(world: World, principal: Principal, input: ProjectCreateRequest["project"], shouldFail: OperationFailureHook): CreatedProject {
  const { orgId, regionId } = requireCreatable(world, principal, input);
  const project = newProjectRecord(world, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    regionId,
    pgVersion: input.pg_version ?? 17,
    ownerId: principal.userId,
    ...(orgId !== undefined ? { orgId } : {}),
    ...(input.store_passwords !== undefined ? { storePasswords: input.store_passwords } : {}),
    ...(input.history_retention_seconds !== undefined ? { historyRetentionSeconds: input.history_retention_seconds } : {}),
    ...(input.settings !== undefined ? { settings: input.settings } : {}),
    defaultEndpointSettings: {
      ...input.default_endpoint_settings,
      ...(input.autoscaling_limit_min_cu !== undefined ? { autoscaling_limit_min_cu: input.autoscaling_limit_min_cu } : {}),
      ...(input.autoscaling_limit_max_cu !== undefined ? { autoscaling_limit_max_cu: input.autoscaling_limit_max_cu } : {}),
    },
    ...(input.provisioner !== undefined ? { provisioner: input.provisioner } : {}),
  });
  world.projects.set(project.id, project);
  const branch = newBranchRecord(world, project, { name: input.branch?.name ?? "main", isDefault: true, state: "init", initSource: "schema-only" });
  const role = newRole(world, input.branch?.role_name ?? "neondb_owner");
  branch.roles.set(role.name, role);
  const databaseName = input.branch?.database_name ?? "neondb";
  const now = world.clock.now();
  branch.databases.set(databaseName, { id: world.newDatabaseId(), name: databaseName, ownerName: role.name, createdAt: now, updatedAt: now });
  const endpoint = newEndpointRecord(world, project, branch.id, { type: "read_write" });
  const specs: OperationSpec[] = [
    { action: "create_timeline", branchId: branch.id, onFinish: () => markBranchReady(world, branch) },
    startComputeSpec(world, endpoint),
  ];
  return { project, branch, endpoint, role, databaseName, operations: startOperations(world, project, specs, shouldFail) };
}

/**
 * Updates a project's name, history retention (within the plan; starts `apply_storage_config`),
 * settings (starts `apply_config` per endpoint) and default endpoint settings.
 */
export function updateProject(world: World, project: ProjectRec, input: ProjectUpdateRequest["project"], shouldFail: OperationFailureHook): OperationRec[] {
  const des = input.default_endpoint_settings;
  if (des?.autoscaling_limit_min_cu !== undefined || des?.autoscaling_limit_max_cu !== undefined) {
    const min = des.autoscaling_limit_min_cu ?? project.defaultEndpointSettings.autoscaling_limit_min_cu ?? 0.25;
    const max = des.autoscaling_limit_max_cu ?? project.defaultEndpointSettings.autoscaling_limit_max_cu ?? Math.max(min, 2);
    checkComputeRange(min, max, "project.default_endpoint_settings");
  }
  requireUnlocked(project);
  const plan = world.planOf(project);
  if (input.history_retention_seconds !== undefined && input.history_retention_seconds > PLAN_LIMITS[plan].historySeconds) {
    throw new RuleError("forbidden", `project.history_retention_seconds ${input.history_retention_seconds} exceeds the ${plan} plan's ${PLAN_LIMITS[plan].historySeconds} s; lower it or upgrade the plan`, { code: "plan_limit_exceeded" });
  }
  if (input.name !== undefined) project.name = input.name;
  if (input.history_retention_seconds !== undefined) project.historyRetentionSeconds = input.history_retention_seconds;
  if (input.settings !== undefined) project.settings = { ...project.settings, ...input.settings };
  if (des !== undefined) project.defaultEndpointSettings = { ...project.defaultEndpointSettings, ...des };
  project.updatedAt = world.clock.now();
  const specs: OperationSpec[] = [];
  if (input.history_retention_seconds !== undefined) specs.push({ action: "apply_storage_config" });
  if (input.settings !== undefined) {
    for (const ep of project.endpoints.values()) specs.push({ action: "apply_config", branchId: ep.branchId, endpointId: ep.id });
  }
  return startOperations(world, project, specs, shouldFail);
}

/** Recovers a deleted project inside its recovery window (`conflict` for a live one, `not_found` once the window has passed). */
export function recoverDeletedProject(world: World, project: ProjectRec): void {
  if (project.deletedAt === undefined) throw new RuleError("conflict", `project ${project.id} is not deleted; only deleted projects can be recovered`, { code: "conflict" });
  requireUnlocked(project);
  if (!recoverProject(world, project)) throw new RuleError("not_found", `project ${project.id} not found: its 7-day recovery window has passed`);
}
