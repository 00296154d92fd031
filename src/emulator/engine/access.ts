/**
 * The access model: the project role a caller holds.
 * Owners and organization keys in scope are ADMIN; organization members hold their explicit
 * grant, else ADMIN as organization admins, else the organization's default project role
 * (which may be none); permission grantees are EDITOR.
 */
import type { OrgRec, Principal, ProjectRec, ProjectRole, UserRec } from "../store/records.js";

const RANK: Readonly<Record<ProjectRole, number>> = Object.freeze({ VIEWER: 1, EDITOR: 2, ADMIN: 3 });

/** Orders roles: VIEWER < EDITOR < ADMIN; `null` (no access) is lowest. */
export function roleRank(role: ProjectRole | null): number {
  return role === null ? 0 : RANK[role];
}

/** The role an organization member holds on a project of the organization (rule 6). */
export function memberRole(org: OrgRec, project: ProjectRec, userId: string): ProjectRole | null {
  const orgRole = org.members.get(userId);
  if (orgRole === undefined) return null;
  const explicit = org.projectRoleManagement ? project.memberRoles.get(userId) : undefined;
  if (explicit !== undefined) return explicit;
  return orgRole === "admin" ? "ADMIN" : org.memberDefaultProjectRole;
}

/** The caller's role on a (not deleted) project, or null when it has no access. */
export function effectiveRole(principal: Principal, project: ProjectRec, orgs: ReadonlyMap<string, OrgRec>, users: ReadonlyMap<string, UserRec>): ProjectRole | null {
  if (principal.orgId !== undefined) return project.orgId === principal.orgId ? "ADMIN" : null;
  let role: ProjectRole | null = null;
  if (project.orgId !== undefined) {
    const org = orgs.get(project.orgId);
    if (org !== undefined) role = memberRole(org, project, principal.userId);
  } else if (project.ownerId === principal.userId) return "ADMIN";
  const email = users.get(principal.userId)?.email.toLowerCase();
  if (email !== undefined && project.permissions.some((p) => p.revokedAt === undefined && p.email.toLowerCase() === email) && roleRank(role) < RANK.EDITOR) role = "EDITOR";
  return role;
}
