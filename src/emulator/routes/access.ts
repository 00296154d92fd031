/**
 * Project access (api.md §11, seed 000 "Project access and members"): permissions granted by
 * email, and organization members with their explicit project roles (members rules 1–6).
 */
import { Hono, type Context } from "hono";
import { MemberListQuerySchema, MemberRoleDeleteQuerySchema, MemberRolePutQuerySchema, MemberRoleRequestSchema, PermissionCreateRequestSchema } from "../../api/wire/index.js";
import { memberRole, roleRank } from "../engine/access.js";
import { isoTime } from "../engine/clock.js";
import { requireUnlocked } from "../engine/operations.js";
import type { EmulatorEnv } from "../http/env.js";
import { conflict, notFound } from "../http/errors.js";
import { requireRole, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { OrgRec, PermissionRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { nextPage } from "./shared.js";

function permissionView(p: PermissionRec): Record<string, unknown> {
  return { id: p.id, granted_to_email: p.email, granted_at: isoTime(p.grantedAt), ...(p.revokedAt !== undefined ? { revoked_at: isoTime(p.revokedAt) } : {}) };
}

function memberView(world: World, org: OrgRec, project: ProjectRec, userId: string): Record<string, unknown> {
  const user = world.users.get(userId);
  return {
    member_id: userId,
    email: user?.email ?? "",
    name: user?.name ?? "",
    org_role: org.members.get(userId) ?? "member",
    explicit_role: project.memberRoles.get(userId) ?? null,
    effective_role: memberRole(org, project, userId),
  };
}

/** Rule 1: members routes exist only for organization projects with per-project role management. */
function managedOrg(world: World, project: ProjectRec): OrgRec {
  const org = project.orgId !== undefined ? world.orgs.get(project.orgId) : undefined;
  if (org === undefined) throw notFound(`project ${project.id} is not owned by an organization, so it has no members; use permissions to share it`);
  if (!org.projectRoleManagement) throw notFound(`per-project role management is disabled in organization ${org.id}; members of project ${project.id} follow their organization role`);
  return org;
}

/** The caller's own user id when it acts as a person (personal key), else undefined. */
function selfId(c: Context<EmulatorEnv>): string | undefined {
  const principal = c.get("principal");
  return principal.orgId === undefined ? principal.userId : undefined;
}

/** Routes of the permissions and members group. */
export function accessRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id";
  const project = (c: Context<EmulatorEnv>): ProjectRec => {
    rt.world.now();
    return visibleProject(rt.world, c, c.req.param("project_id") ?? "");
  };

  r.get(`${base}/permissions`, (c) => {
    const p = project(c);
    return c.json({ project_permissions: p.permissions.filter((perm) => perm.revokedAt === undefined).map(permissionView) });
  });

  r.post(`${base}/permissions`, async (c) => {
    const world = rt.world;
    const p = project(c);
    requireRole(world, c, p, "ADMIN", "granting access");
    const body = await readJson(c, PermissionCreateRequestSchema);
    const email = body.email.toLowerCase();
    if (p.permissions.some((perm) => perm.revokedAt === undefined && perm.email.toLowerCase() === email)) {
      throw conflict(`${body.email} already has access to project ${p.id}; revoke the existing permission first to grant it again`, "already_exists");
    }
    const perm: PermissionRec = { id: `perm-${world.ids.hex(16)}`, email: body.email, grantedAt: world.clock.now() };
    p.permissions.push(perm);
    return c.json(permissionView(perm));
  });

  r.delete(`${base}/permissions/:permission_id`, (c) => {
    const world = rt.world;
    const p = project(c);
    requireRole(world, c, p, "ADMIN", "revoking access");
    const id = c.req.param("permission_id");
    const perm = p.permissions.find((x) => x.id === id && x.revokedAt === undefined);
    if (perm === undefined) throw notFound(`permission ${id} not found on project ${p.id}; GET …/permissions lists the active ones`);
    perm.revokedAt = world.clock.now();
    return c.json(permissionView(perm));
  });

  r.get(`${base}/members`, (c) => {
    const world = rt.world;
    const p = project(c);
    const org = managedOrg(world, p);
    const q = readQuery(c, MemberListQuerySchema);
    const admin = world.roleOf(c.get("principal"), p) === "ADMIN";
    const users = [...org.members.keys()]
      .filter((uid) => admin || memberRole(org, p, uid) !== null)
      .sort((a, b) => {
        const ea = world.users.get(a)?.email ?? a;
        const eb = world.users.get(b)?.email ?? b;
        return ea < eb ? -1 : ea > eb ? 1 : 0;
      });
    const { page, next } = nextPage(users, q.cursor, q.limit ?? 100, "email");
    return c.json({ members: page.map((uid) => memberView(world, org, p, uid)), ...(next !== undefined ? { pagination: { next, cursor: next } } : {}) });
  });

  const memberOf = (c: Context<EmulatorEnv>): { world: World; p: ProjectRec; org: OrgRec; memberId: string } => {
    const world = rt.world;
    const p = project(c);
    const org = managedOrg(world, p);
    requireRole(world, c, p, "ADMIN", "changing member roles");
    const memberId = c.req.param("member_id") ?? "";
    if (!org.members.has(memberId)) throw notFound(`member ${memberId} not found in organization ${org.id}; GET …/members lists member ids`);
    return { world, p, org, memberId };
  };

  r.put(`${base}/members/:member_id/role`, async (c) => {
    const { world, p, org, memberId } = memberOf(c);
    const q = readQuery(c, MemberRolePutQuerySchema);
    const body = await readJson(c, MemberRoleRequestSchema);
    requireUnlocked(p);
    if (memberId === selfId(c) && roleRank(body.role) < roleRank(memberRole(org, p, memberId)) && q.confirm_self_demotion !== true) {
      throw conflict(`this lowers your own role on project ${p.id} to ${body.role}; repeat with ?confirm_self_demotion=true to confirm`, "confirmation_required");
    }
    p.memberRoles.set(memberId, body.role);
    return c.json({ member: memberView(world, org, p, memberId) });
  });

  r.delete(`${base}/members/:member_id/role`, (c) => {
    const { world, p, org, memberId } = memberOf(c);
    const q = readQuery(c, MemberRoleDeleteQuerySchema);
    requireUnlocked(p);
    const explicit = p.memberRoles.get(memberId);
    if (explicit !== undefined && memberId === selfId(c) && q.confirm_self_lockout !== true) {
      const before = memberRole(org, p, memberId);
      p.memberRoles.delete(memberId);
      const after = memberRole(org, p, memberId);
      p.memberRoles.set(memberId, explicit);
      if (before === "ADMIN" && after !== "ADMIN") {
        throw conflict(`removing your own grant on project ${p.id} leaves you ${after ?? "without access"}, so you would lose manage access; repeat with ?confirm_self_lockout=true to confirm`, "confirmation_required");
      }
    }
    p.memberRoles.delete(memberId);
    return c.json({ member: memberView(world, org, p, memberId) });
  });

  return r;
}
