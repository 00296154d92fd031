/** Project access's domain functions (permissions, members' explicit roles) on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { memberRole } from "../../../src/emulator/engine/access.js";
import { clearMemberRole, grantPermission, listMembers, listPermissions, managedOrg, requireMember, revokePermission, setMemberRole } from "../../../src/emulator/engine/project-access.js";
import { startOperations } from "../../../src/emulator/engine/operations.js";
import type { OrgRec } from "../../../src/emulator/store/records.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("permissions", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("grants access once per email (case-insensitively), and revokes an active permission once", () => {
    const perm = grantPermission(w.world, w.project, "Dev@Example.com");
    expect(refusal(() => grantPermission(w.world, w.project, "dev@example.com"))).toEqual(["conflict", "already_exists"]);
    expect(revokePermission(w.world, w.project, perm.id).revokedAt).toBe(w.world.clock.now());
    expect([listPermissions(w.project), w.project.permissions]).toEqual([[], [perm]]);
    expect(refusal(() => revokePermission(w.world, w.project, perm.id))).toEqual(["not_found", "not_found"]);
    expect(grantPermission(w.world, w.project, "dev@example.com").id).not.toBe(perm.id);
  });
});

describe("members", () => {
  let w: UnitWorld;
  let org: OrgRec;
  let me: string;
  const other = "user-other";
  beforeEach(() => {
    w = unitWorld();
    me = w.principal.userId;
    w.world.users.set(other, { id: other, email: "a-other@example.com", name: "Other", plan: "free", createdAt: 0 });
    org = { id: "org-acme", name: "Acme", plan: "scale", platformFeatures: true, members: new Map([[me, "admin"], [other, "member"]]), projectRoleManagement: true, memberDefaultProjectRole: null, createdAt: 0 };
    w.world.orgs.set(org.id, org);
    w.project.orgId = org.id;
  });

  it("exist only on organization projects with role management", () => {
    expect(managedOrg(w.world, w.project)).toBe(org);
    org.projectRoleManagement = false;
    expect(refusal(() => managedOrg(w.world, w.project))).toEqual(["not_found", "not_found"]);
    delete w.project.orgId;
    expect(refusal(() => managedOrg(w.world, w.project))).toEqual(["not_found", "not_found"]);
    expect(refusal(() => requireMember(org, "user-nobody"))).toEqual(["not_found", "not_found"]);
  });

  it("lists every member by email to an admin, and only those with access to others", () => {
    w.world.users.set(other, { ...w.world.users.get(other)!, email: "zz-other@example.com" });
    expect(listMembers(w.world, org, w.project, true)).toEqual([me, other]);
    w.world.users.set(other, { ...w.world.users.get(other)!, email: "0-other@example.com" });
    expect(listMembers(w.world, org, w.project, true)).toEqual([other, me]);
    expect(listMembers(w.world, org, w.project, false)).toEqual([me]);
    setMemberRole(org, w.project, { memberId: other, actingUserId: me }, "VIEWER");
    expect(listMembers(w.world, org, w.project, false)).toContain(other);
  });

  it("asks for confirmation before lowering one's own role or losing one's own ADMIN, not another's", () => {
    setMemberRole(org, w.project, { memberId: other, actingUserId: me }, "ADMIN");
    setMemberRole(org, w.project, { memberId: other, actingUserId: me }, "VIEWER");
    expect(refusal(() => setMemberRole(org, w.project, { memberId: me, actingUserId: me }, "EDITOR"))).toEqual(["conflict", "confirmation_required"]);
    setMemberRole(org, w.project, { memberId: me, actingUserId: me, confirmed: true }, "EDITOR");
    expect(memberRole(org, w.project, me)).toBe("EDITOR");
    org.members.set(me, "member");
    setMemberRole(org, w.project, { memberId: me, actingUserId: me }, "ADMIN");
    expect(refusal(() => clearMemberRole(org, w.project, { memberId: me, actingUserId: me }))).toEqual(["conflict", "confirmation_required"]);
    expect(memberRole(org, w.project, me)).toBe("ADMIN");
    clearMemberRole(org, w.project, { memberId: me, actingUserId: me, confirmed: true });
    clearMemberRole(org, w.project, { memberId: other, actingUserId: me });
    expect([memberRole(org, w.project, me), memberRole(org, w.project, other)]).toEqual([null, null]);
  });

  it("refuses role changes while the project is locked", () => {
    const slow = unitWorld({ opRunMs: 1_000 });
    slow.world.orgs.set(org.id, org);
    slow.project.orgId = org.id;
    startOperations(slow.world, slow.project, [{ action: "apply_config", branchId: slow.main.id }]);
    expect([
      refusal(() => setMemberRole(org, slow.project, { memberId: other, actingUserId: me }, "VIEWER")),
      refusal(() => clearMemberRole(org, slow.project, { memberId: other, actingUserId: me })),
    ]).toEqual([
      ["locked", "locked"],
      ["locked", "locked"],
    ]);
  });
});
