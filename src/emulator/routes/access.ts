/**
 * Project access: permissions granted by
 * email, and organization members with their explicit project roles (members rules 1–6).
 */
import { Hono, type Context } from "hono";
import { MemberListQuerySchema, MemberRoleDeleteQuerySchema, MemberRolePutQuerySchema, MemberRoleRequestSchema, PermissionCreateRequestSchema } from "../../api/wire/index.js";
import { memberRole } from "../engine/access.js";
import { clearMemberRole, grantPermission, listMembers, listPermissions, managedOrg, requireMember, revokePermission, setMemberRole } from "../engine/project-access.js";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
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
    return c.json({ project_permissions: listPermissions(project(c)).map(permissionView) });
  });

  r.post(`${base}/permissions`, async (c) => {
    const p = project(c);
    requireRole(rt.world, c, p, "ADMIN", "granting access");
    const body = await readJson(c, PermissionCreateRequestSchema);
    return c.json(permissionView(grantPermission(rt.world, p, body.email)));
  });

  r.delete(`${base}/permissions/:permission_id`, (c) => {
    const p = project(c);
    requireRole(rt.world, c, p, "ADMIN", "revoking access");
    return c.json(permissionView(revokePermission(rt.world, p, c.req.param("permission_id"))));
  });

  r.get(`${base}/members`, (c) => {
    const world = rt.world;
    const p = project(c);
    const org = managedOrg(world, p);
    const q = readQuery(c, MemberListQuerySchema);
    const users = listMembers(world, org, p, world.roleOf(c.get("principal"), p) === "ADMIN");
    const { page, next } = nextPage(users, q.cursor, q.limit ?? 100, "email");
    return c.json({ members: page.map((uid) => memberView(world, org, p, uid)), ...(next !== undefined ? { pagination: { next, cursor: next } } : {}) });
  });

  const memberOf = (c: Context<EmulatorEnv>): { world: World; p: ProjectRec; org: OrgRec; memberId: string } => {
    const world = rt.world;
    const p = project(c);
    const org = managedOrg(world, p);
    requireRole(world, c, p, "ADMIN", "changing member roles");
    const memberId = c.req.param("member_id") ?? "";
    requireMember(org, memberId);
    return { world, p, org, memberId };
  };

  r.put(`${base}/members/:member_id/role`, async (c) => {
    const { world, p, org, memberId } = memberOf(c);
    const q = readQuery(c, MemberRolePutQuerySchema);
    const body = await readJson(c, MemberRoleRequestSchema);
    setMemberRole(org, p, { memberId, actingUserId: selfId(c), confirmed: q.confirm_self_demotion === true }, body.role);
    return c.json({ member: memberView(world, org, p, memberId) });
  });

  r.delete(`${base}/members/:member_id/role`, (c) => {
    const { world, p, org, memberId } = memberOf(c);
    const q = readQuery(c, MemberRoleDeleteQuerySchema);
    clearMemberRole(org, p, { memberId, actingUserId: selfId(c), confirmed: q.confirm_self_lockout === true });
    return c.json({ member: memberView(world, org, p, memberId) });
  });

  return r;
}
