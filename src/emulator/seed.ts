/**
 * Seeds: the built-in default world and JSON seed documents. Every id is
 * optional; plaintext keys are hashed on load; errors name the JSON path and the fix.
 */
import { z } from "zod";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { DEPLOYMENT_MEMORY_MIB } from "./engine/deployments.js";
import { newBranchRecord, newEndpointRecord, newProjectRecord, newRole } from "./engine/lifecycle.js";
import type { BranchRec, ProjectRec } from "./store/records.js";
import type { World } from "./store/world.js";
import { isStateDocument, stateToSeed } from "./state-seed.js";

const PlanSchema = z.enum(["free", "launch", "scale"]);
const ProjectRoleSchema = z.enum(["VIEWER", "EDITOR", "ADMIN"]);
const AdvisorIssueSeedSchema = z.object({
  branch: z.string(),
  database: z.string(),
  id: z.string().optional(),
  title: z.string(),
  severity: z.enum(["INFO", "WARN", "ERROR"]),
  category: z.string(),
  description: z.string().optional(),
  remediation: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const Id = z.string().regex(/^[a-z0-9-]{1,60}$/);

/** A key given in plaintext (`key`) or, in a restored state document, as `hash: "sha256:<hex>"`. */
const KeySeedSchema = z
  .object({ name: z.string(), key: z.string().min(8).optional(), hash: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(), revoked: z.boolean().optional() })
  .refine((k) => k.key !== undefined || k.hash !== undefined, "give key (plaintext) or hash (sha256:<hex>)");

const BranchSeedSchema = z.object({
  id: Id.optional(),
  name: z.string().min(1),
  parent: z.string().optional(),
  default: z.boolean().optional(),
  protected: z.boolean().optional(),
  /** RFC 3339; default: load time. */
  created_at: z.iso.datetime({ offset: true }).optional(),
  /** RFC 3339; the branch is deleted then. */
  expires_at: z.iso.datetime({ offset: true }).optional(),
  endpoints: z.array(z.object({ id: Id.optional(), name: z.string().max(256).optional(), type: z.enum(["read_write", "read_only"]), state: z.enum(["active", "idle"]).optional(), autoscaling_limit_min_cu: z.number().optional(), autoscaling_limit_max_cu: z.number().optional(), suspend_timeout_seconds: z.number().optional() })).optional(),
  roles: z.array(z.object({ name: z.string().min(1), password: z.string().optional(), no_login: z.boolean().optional() })).optional(),
  databases: z.array(z.object({ name: z.string().min(1), owner_name: z.string().min(1) })).optional(),
  buckets: z.array(z.object({ name: z.string().min(1), access_level: z.string().optional() })).optional(),
  objects: z.array(z.object({ bucket: z.string(), key: z.string(), size: z.number().int().min(0).optional() })).optional(),
  functions: z.array(z.object({ slug: z.string().regex(/^[a-z0-9]{1,20}$/), name: z.string().optional(), runtime: z.string().optional(), environment: z.record(z.string(), z.string()).optional() })).optional(),
  triggers: z.array(z.object({ id: z.string().optional(), name: z.string(), function_slug: z.string(), function_path: z.string().optional(), type: z.enum(["schedule", "storage_object_created"]), cron: z.string().optional(), bucket_name: z.string().optional(), prefix: z.string().optional(), enabled: z.boolean().optional() })).optional(),
  custom_domains: z.array(z.object({ domain: z.string(), function_slug: z.string() })).optional(),
  auth: z.object({ auth_provider: z.string(), database_name: z.string().optional() }).optional(),
  data_api: z.array(z.object({ database: z.string(), settings: z.record(z.string(), z.unknown()).nullable().optional() })).optional(),
});

/** A JSON seed document: the records of a world, as `--seed` reads them. */
export const SeedDocumentSchema = z.object({
  version: z.literal(1),
  users: z.array(z.object({ id: z.string().optional(), email: z.string().min(3), name: z.string().optional(), plan: PlanSchema.optional(), api_keys: z.array(KeySeedSchema.extend({ admin: z.boolean().optional() })).optional() })).optional(),
  organizations: z.array(z.object({ id: Id, name: z.string().optional(), plan: PlanSchema.optional(), platform_features: z.boolean().optional(), project_role_management: z.boolean().optional(), member_default_project_role: ProjectRoleSchema.nullable().optional(), members: z.array(z.object({ email: z.string(), role: z.enum(["admin", "member"]) })).optional(), api_keys: z.array(KeySeedSchema.extend({ project_id: z.string().optional() })).optional() })).optional(),
  projects: z.array(z.object({ owner: z.string(), id: Id.optional(), name: z.string().optional(), region_id: z.string().optional(), pg_version: z.number().int().optional(), store_passwords: z.boolean().optional(), history_retention_seconds: z.number().int().optional(), permissions: z.array(z.object({ email: z.string().min(3) })).optional(), member_roles: z.array(z.object({ email: z.string(), role: ProjectRoleSchema })).optional(), advisor_issues: z.array(AdvisorIssueSeedSchema).optional(), branches: z.array(BranchSeedSchema).optional() })).optional(),
  regions: z.array(z.object({ region_id: z.string(), name: z.string().optional(), platform_features: z.boolean().optional() })).optional(),
});
/** A JSON seed document. */
export type SeedDocument = z.infer<typeof SeedDocumentSchema>;

/** The built-in seed; its bootstrap key is supplied by the caller. */
export function defaultSeed(bootstrapKey: string): SeedDocument {
  return {
    version: 1,
    users: [{ email: "dev@example.test", name: "Emulator Developer", plan: "scale", api_keys: [{ name: "bootstrap", key: bootstrapKey, admin: true }] }],
    projects: [
      {
        owner: "dev@example.test",
        name: "emulator",
        region_id: "aws-us-east-2",
        pg_version: 17,
        branches: [{ name: "main", default: true, endpoints: [{ type: "read_write", state: "idle" }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }] }],
      },
    ],
  };
}

function seedError(path: string, message: string): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, `invalid emulator seed: ${path}: ${message}`, { details: { path } });
}

/** Validates a seed document; errors name the JSON path (`projects[0].branches[2].parent`). */
export function parseSeedDocument(raw: unknown): SeedDocument {
  const result = SeedDocumentSchema.safeParse(isStateDocument(raw) ? stateToSeed(raw) : raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
  throw seedError(path || "(root)", issue?.message ?? "invalid");
}

/** What loading a seed produced: the first project and its default branch are printed. */
export interface SeedResult {
  firstKey?: string;
  projectId?: string;
  defaultBranchId?: string;
}

/** Loads a validated seed document into an empty world. */
export function loadSeed(world: World, seed: SeedDocument): SeedResult {
  const now = world.clock.now();
  const result: SeedResult = {};
  const userByEmail = new Map<string, string>();
  if (seed.regions !== undefined) world.regions = seed.regions.map((r) => ({ id: r.region_id, name: r.name ?? r.region_id, features: r.platform_features ?? true, geoLat: "0", geoLong: "0" }));
  (seed.users ?? []).forEach((u) => {
    const id = u.id ?? world.ids.uuid();
    world.users.set(id, { id, email: u.email, name: u.name ?? u.email, plan: u.plan ?? "free", createdAt: now });
    userByEmail.set(u.email, id);
    for (const k of u.api_keys ?? []) {
      addSeedKey(world, k, { name: k.name, kind: "personal", accountId: id, createdBy: id, admin: k.admin ?? false, createdAt: now });
      if (k.key !== undefined) result.firstKey ??= k.key;
    }
  });
  (seed.organizations ?? []).forEach((o, i) => {
    const members = new Map<string, "admin" | "member">();
    (o.members ?? []).forEach((m, j) => {
      const uid = userByEmail.get(m.email);
      if (uid === undefined) throw seedError(`organizations[${i}].members[${j}].email`, `unknown user "${m.email}"`);
      members.set(uid, m.role);
    });
    world.orgs.set(o.id, { id: o.id, name: o.name ?? o.id, plan: o.plan ?? "free", platformFeatures: o.platform_features ?? true, members, projectRoleManagement: o.project_role_management ?? true, memberDefaultProjectRole: o.member_default_project_role === undefined ? "EDITOR" : o.member_default_project_role, createdAt: now });
    world.reserveId(o.id);
    const creator = [...members.keys()][0] ?? "";
    for (const k of o.api_keys ?? []) addSeedKey(world, k, { name: k.name, kind: "org", accountId: o.id, createdBy: creator, ...(k.project_id !== undefined ? { projectId: k.project_id } : {}), admin: false, createdAt: now });
  });
  (seed.projects ?? []).forEach((p, i) => {
    const org = world.orgs.get(p.owner);
    const userId = userByEmail.get(p.owner) ?? (org !== undefined ? ([...org.members.keys()][0] ?? p.owner) : undefined);
    if (userId === undefined) throw seedError(`projects[${i}].owner`, `unknown owner "${p.owner}": give a user email or an organization id`);
    const project = newProjectRecord(world, {
      ...(p.id !== undefined ? { id: p.id } : {}),
      ...(p.name !== undefined ? { name: p.name } : {}),
      regionId: p.region_id ?? "aws-us-east-2",
      pgVersion: p.pg_version ?? 17,
      ownerId: userId,
      ...(org !== undefined ? { orgId: org.id } : {}),
      ...(p.store_passwords !== undefined ? { storePasswords: p.store_passwords } : {}),
      ...(p.history_retention_seconds !== undefined ? { historyRetentionSeconds: p.history_retention_seconds } : {}),
    });
    world.projects.set(project.id, project);
    loadBranches(world, project, p.branches ?? [], `projects[${i}]`);
    if (world.defaultBranch(project) === undefined) throw seedError(`projects[${i}].branches`, "a project needs one branch with default: true");
    loadAccess(world, project, p, userByEmail, `projects[${i}]`);
    for (const action of ["create_timeline", "start_compute"]) {
      project.operations.push({ id: world.ids.uuid(), seq: world.newOperationSeq(), projectId: project.id, action, status: "finished", failuresCount: 0, createdAt: now, updatedAt: now, startAt: now, finishAt: now, willFail: false, willSkip: false, totalDurationMs: 0 });
    }
    if (i === 0) {
      result.projectId = project.id;
      result.defaultBranchId = world.defaultBranch(project)?.id;
    }
  });
  return result;
}

function loadAccess(world: World, project: ProjectRec, p: NonNullable<SeedDocument["projects"]>[number], userByEmail: Map<string, string>, at: string): void {
  const now = world.clock.now();
  for (const perm of p.permissions ?? []) project.permissions.push({ id: `perm-${world.ids.hex(16)}`, email: perm.email, grantedAt: now });
  (p.member_roles ?? []).forEach((m, k) => {
    const uid = userByEmail.get(m.email);
    if (uid === undefined || project.orgId === undefined || world.orgs.get(project.orgId)?.members.has(uid) !== true) {
      throw seedError(`${at}.member_roles[${k}].email`, `"${m.email}" is not a member of the project's organization`);
    }
    project.memberRoles.set(uid, m.role);
  });
  (p.advisor_issues ?? []).forEach((a, k) => {
    const branch = [...project.branches.values()].find((b) => b.name === a.branch || b.id === a.branch);
    if (branch === undefined) throw seedError(`${at}.advisor_issues[${k}].branch`, `unknown branch "${a.branch}"`);
    project.advisorIssues.push({
      id: a.id ?? `adv-${world.ids.hex(12)}`,
      branchId: branch.id,
      database: a.database,
      title: a.title,
      severity: a.severity,
      category: a.category,
      description: a.description ?? a.title,
      ...(a.remediation !== undefined ? { remediation: a.remediation } : {}),
      ...(a.metadata !== undefined ? { metadata: a.metadata } : {}),
    });
  });
}

function addSeedKey(world: World, k: { key?: string | undefined; hash?: string | undefined; revoked?: boolean | undefined }, init: Parameters<World["addKey"]>[1]): void {
  if (k.key !== undefined) world.addKey(k.key, init);
  else if (k.hash !== undefined) world.addKeyHash(k.hash.slice("sha256:".length), init, k.revoked ?? false);
}

function loadBranches(world: World, project: ProjectRec, branches: z.infer<typeof BranchSeedSchema>[], at: string): void {
  const byName = new Map<string, BranchRec>();
  const pending = branches.map((b, j) => ({ b, j }));
  while (pending.length > 0) {
    const index = pending.findIndex(({ b }) => b.parent === undefined || byName.has(b.parent));
    if (index < 0) {
      const first = pending[0];
      throw seedError(`${at}.branches[${first?.j ?? 0}].parent`, `unknown branch "${first?.b.parent ?? ""}"`);
    }
    const [{ b, j } = { b: branches[0], j: 0 }] = pending.splice(index, 1);
    if (b === undefined) continue;
    const path = `${at}.branches[${j}]`;
    const parent = b.parent !== undefined ? byName.get(b.parent) : undefined;
    const branch = newBranchRecord(world, project, { ...(b.id !== undefined ? { id: b.id } : {}), name: b.name, ...(parent !== undefined ? { parent } : {}), isDefault: b.default ?? false, protected: b.protected ?? false, ...(b.expires_at !== undefined ? { expiresAt: Date.parse(b.expires_at) } : {}) });
    if (b.created_at !== undefined) branch.createdAt = Date.parse(b.created_at);
    byName.set(b.name, branch);
    loadBranchChildren(world, project, branch, b, path);
  }
}

function loadBranchChildren(world: World, project: ProjectRec, branch: BranchRec, b: z.infer<typeof BranchSeedSchema>, path: string): void {
  const now = world.clock.now();
  for (const r of b.roles ?? []) branch.roles.set(r.name, newRole(world, r.name, { ...(r.password !== undefined ? { password: r.password } : {}), ...(r.no_login === true ? { noLogin: true } : {}) }));
  (b.databases ?? []).forEach((d, k) => {
    if (!branch.roles.has(d.owner_name)) throw seedError(`${path}.databases[${k}].owner_name`, `unknown role "${d.owner_name}"`);
    branch.databases.set(d.name, { id: world.newDatabaseId(), name: d.name, ownerName: d.owner_name, createdAt: now, updatedAt: now });
  });
  for (const e of b.endpoints ?? []) {
    const ep = newEndpointRecord(world, project, branch.id, e, e.id);
    delete ep.pendingState;
    ep.currentState = e.state ?? "idle";
    if (ep.currentState === "active") ep.startedAt = now;
  }
  for (const bk of b.buckets ?? []) branch.buckets.set(bk.name, { name: bk.name, accessLevel: bk.access_level ?? "private", createdAt: now, inherited: false, objects: new Map() });
  (b.objects ?? []).forEach((o, k) => {
    const bucket = branch.buckets.get(o.bucket);
    if (bucket === undefined) throw seedError(`${path}.objects[${k}].bucket`, `unknown bucket "${o.bucket}"`);
    bucket.objects.set(o.key, { key: o.key, size: o.size ?? 0, etag: `"${world.ids.hex(32)}"`, lastModified: now });
  });
  for (const f of b.functions ?? []) {
    branch.functions.set(f.slug, {
      id: world.ids.uuid(), slug: f.slug, name: f.name ?? f.slug, createdAt: now, inherited: false,
      deployments: [{ id: 1, status: "completed", runtime: f.runtime ?? "nodejs24", memoryMib: DEPLOYMENT_MEMORY_MIB, createdAt: now, environment: new Map(Object.entries(f.environment ?? {})), zipSha256: "", buildError: null, buildingAt: now, finishAt: now }],
    });
  }
  (b.triggers ?? []).forEach((t, k) => {
    if (!branch.functions.has(t.function_slug)) throw seedError(`${path}.triggers[${k}].function_slug`, `unknown function "${t.function_slug}"`);
    const id = t.id ?? `trg_${world.ids.hex(16)}`;
    branch.triggers.set(id, { id, type: t.type, functionSlug: t.function_slug, name: t.name, functionPath: t.function_path ?? "/", enabled: t.enabled ?? true, version: 1, inherited: false, ...(t.cron !== undefined ? { cron: t.cron } : {}), ...(t.bucket_name !== undefined ? { bucketName: t.bucket_name } : {}), ...(t.prefix !== undefined ? { prefix: t.prefix } : {}) });
  });
  (b.custom_domains ?? []).forEach((d, k) => {
    const domain = d.domain.trim().toLowerCase().replace(/\.$/, "");
    if (world.domains.has(domain)) throw seedError(`${path}.custom_domains[${k}].domain`, `domain "${domain}" is registered twice`);
    world.domains.set(domain, { domain, accountId: world.accountOf(project), projectId: project.id, branchId: branch.id, entityType: "function", entityId: d.function_slug, cnameTarget: `edge.${project.regionId}.emulator.invalid`, activeAt: now, createdAt: now });
  });
  if (b.auth !== undefined) {
    const db = b.auth.database_name ?? [...branch.databases.keys()][0] ?? "neondb";
    branch.auth = { provider: b.auth.auth_provider, providerProjectId: world.ids.uuid(), databaseName: db, createdAt: now, secretServerKey: "", pubClientKey: "", oauthProviders: new Map(), domains: [], ownedBy: "neon_managed", users: new Map(), emailServer: {} };
  }
  for (const d of b.data_api ?? []) branch.dataApi.set(d.database, { database: d.database, settings: d.settings ?? null, createdAt: now });
}
