import type { ApiBranch, ApiEndpoint, ApiFunction, ApiProject, ApiTrigger, PlatformApi } from "../api/platform-api.js";
import type { ResolvedPolicy } from "../config/resolved.js";
import { serviceDatabase } from "../diff/services.js";
import { MARKER_PREFIX } from "../diff/functions.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError, isPlatformError } from "../errors/platform-error.js";
import type { Deployment, LiveFunction, LiveState, LiveTrigger } from "../model/live-state.js";
import type { EngineEvent } from "../apply/events.js";

/** Identifies the branch being read. */
export interface BranchIds {
  projectId: string;
  branchId: string;
}

/** Waves 1–2: what every operation reads before the closure runs. */
export interface BaseState {
  project: LiveState["project"];
  branch: LiveState["branch"];
  compute: LiveState["compute"];
}

/** Kinds whose read answered feature-unavailable, with the platform's reason. */
export type Unavailable = Partial<Record<"bucket" | "function" | "trigger" | "domain", string>>;

function toProject(p: ApiProject): LiveState["project"] {
  const d = p.default_endpoint_settings ?? {};
  const defaultCompute: LiveState["project"]["defaultCompute"] = {};
  if (d.autoscaling_limit_min_cu !== undefined) defaultCompute.minCu = d.autoscaling_limit_min_cu;
  if (d.autoscaling_limit_max_cu !== undefined) defaultCompute.maxCu = d.autoscaling_limit_max_cu;
  if (d.suspend_timeout_seconds !== undefined) defaultCompute.suspendTimeoutSeconds = d.suspend_timeout_seconds;
  return { id: p.id, name: p.name, regionId: p.region_id, pgVersion: p.pg_version, ...(p.org_id ? { orgId: p.org_id } : {}), defaultCompute };
}

/** RFC 3339 UTC without fractional zeros. */
function normTime(value: string): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().replace(".000Z", "Z");
}

/** The normalised branch record. */
export function toBranch(b: ApiBranch): LiveState["branch"] {
  return {
    id: b.id, name: b.name, createdAt: normTime(b.created_at), protected: b.protected, isDefault: b.default,
    ...(b.parent_id ? { parentId: b.parent_id } : {}),
    ...(b.expires_at ? { expiresAt: normTime(b.expires_at) } : {}),
  };
}

function toCompute(endpoints: readonly ApiEndpoint[]): LiveState["compute"] {
  const rw = endpoints.find((e) => e.type === "read_write");
  if (rw === undefined) return null;
  return { endpointId: rw.id, minCu: rw.autoscaling_limit_min_cu, maxCu: rw.autoscaling_limit_max_cu, suspendTimeoutSeconds: rw.suspend_timeout_seconds };
}

const STATUSES = new Set(["pending", "building", "completed", "failed"]);

function toDeployment(d: NonNullable<ApiFunction["current_deployment"]>): Deployment {
  const status = (STATUSES.has(d.status) ? d.status : "pending") as Deployment["status"];
  return { id: d.id, status, runtime: d.runtime, ...(d.error ? { error: d.error } : {}) };
}

/** A function with its env names split into declared names and fingerprint markers. */
export function toLiveFunction(f: ApiFunction): LiveFunction {
  const names = f.current_deployment?.environment ?? f.active_deployment?.environment ?? [];
  return {
    slug: f.slug, name: f.name, invocationUrl: f.invocation_url,
    envNames: names.filter((n) => !n.startsWith(MARKER_PREFIX)).sort(),
    markers: names.filter((n) => n.startsWith(MARKER_PREFIX)).sort(),
    ...(f.current_deployment ? { current: toDeployment(f.current_deployment) } : {}),
    ...(f.active_deployment ? { active: toDeployment(f.active_deployment) } : {}),
  };
}

function toTrigger(t: ApiTrigger): LiveTrigger {
  const trigger: LiveTrigger = { id: t.trigger_id, name: t.name, type: t.type, function: t.function_slug, functionPath: t.function_path, enabled: t.enabled, inherited: t.inherited };
  if (t.schedule) trigger.cron = t.schedule.cron.trim().split(/\s+/).join(" ");
  if (t.storage_object_created) {
    trigger.bucket = t.storage_object_created.bucket_name;
    if (t.storage_object_created.prefix !== undefined) trigger.prefix = t.storage_object_created.prefix;
  }
  return trigger;
}

const byKey = <T>(key: (t: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Waves 1–2: project, branch and endpoints in parallel; an unknown branch id lists the branches. */
export async function readBaseState(api: PlatformApi, ids: BranchIds, emit: (e: EngineEvent) => void): Promise<BaseState> {
  emit({ type: "read", wave: 1, request: "project, branch, endpoints" });
  const branchP = api.getBranch(ids).catch(async (err: unknown) => {
    if (!isPlatformError(err, ErrorCode.NOT_FOUND)) throw err;
    const branches = await api.listBranches({ projectId: ids.projectId });
    const available = branches.map((b) => `${b.name} (${b.id})`);
    throw new PlatformError(ErrorCode.BRANCH_NOT_FOUND,
      `Branch ${ids.branchId} does not exist in project ${ids.projectId}; pass a branch id, not a name. Available: ${available.join(", ") || "none"}`,
      { details: { projectId: ids.projectId, branchId: ids.branchId, available }, cause: err });
  });
  const [project, branch, endpoints] = await Promise.all([api.getProject(ids), branchP, api.listEndpoints(ids)]);
  return { project: toProject(project), branch: toBranch(branch), compute: toCompute(endpoints) };
}

async function feature<T>(kind: keyof Unavailable, unavailable: Unavailable, read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (err) {
    if (!isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) throw err;
    const reason = (err.details as { reason?: unknown }).reason;
    unavailable[kind] = typeof reason === "string" ? reason : err.message;
    return [];
  }
}

/** Wave 3: only what the resolved policy needs (engine.md §4.2). */
export async function readPolicyState(api: PlatformApi, ids: BranchIds, base: BaseState, desired: ResolvedPolicy, emit: (e: EngineEvent) => void): Promise<{ live: LiveState; unavailable: Unavailable }> {
  const live: LiveState = { ...base };
  const unavailable: Unavailable = {};
  const p = desired.prune;
  const storageTriggers = desired.triggers.some((t) => t.type === "storage_object_created");
  const reads: Promise<void>[] = [];
  const builtinCreate = desired.dataApi.state === "enabled" && desired.dataApi.authProvider === "builtin";
  if (desired.dataApi.state !== "unmanaged" || desired.auth === "enabled") {
    reads.push(api.listDatabases(ids).then((dbs) => void (live.databases = dbs.map((d) => d.name).sort())));
  }
  if (desired.dataApi.state !== "unmanaged") {
    const database = serviceDatabase(desired);
    reads.push(api.getDataApi({ ...ids, databaseName: database }).then((d) => {
      if (d !== null) live.dataApi = { enabled: true, database, settings: d.settings ?? null };
    }));
  }
  if (desired.auth === "enabled" || desired.authDeclaredOff || builtinCreate) {
    reads.push(api.getAuth(ids).then((a) => void (live.auth = a === null ? { enabled: false } : { enabled: true, ...(a.db_name ? { databaseName: a.db_name } : {}) })));
  }
  if (desired.buckets.length > 0 || storageTriggers || p.buckets) {
    reads.push(feature("bucket", unavailable, () => api.listBuckets(ids)).then((bs) => void (live.buckets = bs.map((b) => ({ name: b.name, access: b.access_level })).sort(byKey((b) => b.name)))));
  }
  if (desired.functions.length > 0 || p.functions) {
    reads.push(feature("function", unavailable, () => api.listFunctions(ids)).then((fs) => void (live.functions = fs.map(toLiveFunction).sort(byKey((f) => f.slug)))));
  }
  if (p.functions && base.branch.parentId !== undefined) {
    const parent = { projectId: ids.projectId, branchId: base.branch.parentId };
    reads.push(feature("function", {}, () => api.listFunctions(parent)).then((fs) => void (live.parentFunctionSlugs = fs.map((f) => f.slug).sort())));
  }
  if (desired.triggers.length > 0 || p.functions || p.triggers || p.buckets) {
    reads.push(feature("trigger", unavailable, () => api.listTriggers(ids)).then((ts) => void (live.triggers = ts.map(toTrigger).sort(byKey((t) => t.name)))));
  }
  if (desired.functions.some((f) => f.customDomains.length > 0) || p.customDomains || p.functions) {
    reads.push(feature("domain", unavailable, () => api.listCustomDomains(ids)).then((ds) => void (live.customDomains = ds
      .map((d) => ({ domain: d.domain.toLowerCase().replace(/\.$/, ""), entityType: d.entity_type, entityId: d.entity_id, cnameTarget: d.cname_target, ...(d.status ? { status: d.status } : {}) }))
      .sort(byKey((d) => d.domain)))));
  }
  if (reads.length > 0) emit({ type: "read", wave: 2, request: `${reads.length} policy read(s)` });
  await Promise.all(reads);
  return { live, unavailable };
}

/** Wave 4: whether each bucket the plan would delete holds objects. */
export async function readBucketContents(api: PlatformApi, ids: BranchIds, buckets: readonly string[], emit: (e: EngineEvent) => void): Promise<Record<string, boolean>> {
  if (buckets.length === 0) return {};
  emit({ type: "read", wave: 3, request: `objects of ${buckets.length} bucket(s)` });
  const entries = await Promise.all(buckets.map(async (bucket) => {
    const page = await api.listBucketObjects({ ...ids, bucket, limit: 1 });
    return [bucket, page.objects.length > 0] as const;
  }));
  return Object.fromEntries(entries);
}
