/**
 * Changing project access: permissions are
 * granted by email and revoked (kept with their revocation time); organization members' explicit
 * project roles are set and cleared with guards against locking oneself out (members rules 1–6).
 */
import type { OrgRec, PermissionRec, ProjectRec, ProjectRole } from "../store/records.js";
import type { World } from "../store/world.js";
import { memberRole, roleRank } from "./access.js";
import { requireUnlocked } from "./operations.js";
import { RuleError } from "./rule-error.js";

/** A change of a member's explicit role, made by `actingUserId` (a person, when known). */
export interface MemberRoleChange {
  memberId: string;
  /** The user acting through a personal key (undefined for an organization key). */
  actingUserId: string | undefined;
  /** The caller confirmed lowering its own access. @default false */
  confirmed?: boolean;
}

/** The project's active permissions, in grant order. */
export function listPermissions(project: ProjectRec): PermissionRec[] {
  return project.permissions.filter((perm) => perm.revokedAt === undefined);
}

/** Grants access to `email` (`conflict` when it already has an active permission; emails compare case-insensitively). */
export function grantPermission(world: World, project: ProjectRec, email: string): PermissionRec {
  const lower = email.toLowerCase();
  if (listPermissions(project).some((perm) => perm.email.toLowerCase() === lower)) {
    throw new RuleError("conflict", `${email} already has access to project ${project.id}; revoke the existing permission first to grant it again`, { code: "already_exists" });
  }
  const perm: PermissionRec = { id: `perm-${world.ids.hex(16)}`, email, grantedAt: world.clock.now() };
  project.permissions.push(perm);
  return perm;
}

/** Revokes the active permission `id` (`not_found` otherwise); it stays listed with `revokedAt`. */
export function revokePermission(world: World, project: ProjectRec, id: string): PermissionRec {
  const perm = listPermissions(project).find((x) => x.id === id);
  if (perm === undefined) throw new RuleError("not_found", `permission ${id} not found on project ${project.id}; GET …/permissions lists the active ones`);
  perm.revokedAt = world.clock.now();
  return perm;
}

/** Rule 1: members exist only for organization projects with per-project role management (`not_found` otherwise). */
export function managedOrg(world: World, project: ProjectRec): OrgRec {
  const org = project.orgId !== undefined ? world.orgs.get(project.orgId) : undefined;
  if (org === undefined) throw new RuleError("not_found", `project ${project.id} is not owned by an organization, so it has no members; use permissions to share it`);
  if (!org.projectRoleManagement) throw new RuleError("not_found", `per-project role management is disabled in organization ${org.id}; members of project ${project.id} follow their organization role`);
  return org;
}

/** The organization's members a caller sees on the project, by email: all for an admin, else those with access. */
export function listMembers(world: World, org: OrgRec, project: ProjectRec, callerIsAdmin: boolean): string[] {
  const emailOf = (uid: string): string => world.users.get(uid)?.email ?? uid;
  return [...org.members.keys()]
    .filter((uid) => callerIsAdmin || memberRole(org, project, uid) !== null)
    .sort((a, b) => (emailOf(a) < emailOf(b) ? -1 : emailOf(a) > emailOf(b) ? 1 : 0));
}

/** Refuses (`not_found`) a member id that is not in the organization. */
export function requireMember(org: OrgRec, memberId: string): void {
  if (!org.members.has(memberId)) throw new RuleError("not_found", `member ${memberId} not found in organization ${org.id}; GET …/members lists member ids`);
}

/** Gives a member an explicit role; lowering one's own role needs `confirmed` (`conflict` otherwise). Refused while the project is locked. */
export function setMemberRole(org: OrgRec, project: ProjectRec, change: MemberRoleChange, role: ProjectRole): void {
  requireUnlocked(project);
  const { memberId } = change;
  if (memberId === change.actingUserId && roleRank(role) < roleRank(memberRole(org, project, memberId)) && change.confirmed !== true) {
    throw new RuleError("conflict", `this lowers your own role on project ${project.id} to ${role}; repeat with ?confirm_self_demotion=true to confirm`, { code: "confirmation_required" });
  }
  project.memberRoles.set(memberId, role);
}

/** Removes a member's explicit role; losing one's own ADMIN by it needs `confirmed` (`conflict` otherwise). Refused while the project is locked. */
export function clearMemberRole(org: OrgRec, project: ProjectRec, change: MemberRoleChange): void {
  requireUnlocked(project);
  const { memberId } = change;
  const explicit = project.memberRoles.get(memberId);
  if (explicit !== undefined && memberId === change.actingUserId && change.confirmed !== true) {
    const before = memberRole(org, project, memberId);
    project.memberRoles.delete(memberId);
    const after = memberRole(org, project, memberId);
    project.memberRoles.set(memberId, explicit);
    if (before === "ADMIN" && after !== "ADMIN") {
      throw new RuleError("conflict", `removing your own grant on project ${project.id} leaves you ${after ?? "without access"}, so you would lose manage access; repeat with ?confirm_self_lockout=true to confirm`, { code: "confirmation_required" });
    }
  }
  project.memberRoles.delete(memberId);
}
