import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AdvisorListResponseSchema, MemberListResponseSchema, MemberRoleResponseSchema, ProjectPermissionListResponseSchema, ProjectPermissionSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator } from "./helpers.js";
import { M2, M2_SEED, M2_USERS } from "./m2-keys.js";

const TEAM = "/projects/team-app-100001";
type Members = { members: { member_id: string; email: string; explicit_role: string | null; effective_role: string | null }[] };

describe("project members (members rules 1-4)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: M2_SEED });
  });
  beforeEach(() => emu.state.reset());
  afterAll(() => emu.close());

  it.each([
    ["a personal project", M2.dave, "/projects/dave-app-300003/members"],
    ["an organization with per-project role management disabled", M2.alice, "/projects/flat-app-200002/members"],
    ["a caller without access to the project", M2.dave, `${TEAM}/members`],
  ])("rule 1: GET members answers 404 for %s", async (_case, key, path) => {
    const res = await client(emu, key).call<{ code: string }>("GET", path);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });

  it("rule 2: an ADMIN caller also sees unassigned members, an EDITOR only members with access", async () => {
    const admin = await client(emu, M2.alice).call<Members>("GET", `${TEAM}/members`);
    expect(admin.status).toBe(200);
    MemberListResponseSchema.parse(admin.body);
    expect(admin.body.members.map((m) => [m.email, m.effective_role])).toEqual([
      ["alice@example.test", "ADMIN"],
      ["bob@example.test", "EDITOR"],
      ["carol@example.test", null],
    ]);
    const editor = await client(emu, M2.bob).call<Members>("GET", `${TEAM}/members`);
    expect(editor.body.members.map((m) => m.email)).toEqual(["alice@example.test", "bob@example.test"]);
  });

  it("pages members with next (also sent as cursor) and refuses a limit outside 1-500", async () => {
    const alice = client(emu, M2.alice);
    const emails: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await alice.call<Members & { pagination?: { next?: string; cursor?: string } }>("GET", `${TEAM}/members?limit=2${cursor !== undefined ? `&cursor=${cursor}` : ""}`);
      emails.push(...page.body.members.map((m) => m.email));
      expect(page.body.pagination?.cursor).toBe(page.body.pagination?.next);
      cursor = page.body.pagination?.next;
    } while (cursor !== undefined);
    expect(emails).toEqual(["alice@example.test", "bob@example.test", "carol@example.test"]);
    expect((await alice.call("GET", `${TEAM}/members?limit=501`)).status).toBe(400);
  });

  it("rule 3: PUT role grants access and is idempotent", async () => {
    const alice = client(emu, M2.alice);
    expect((await client(emu, M2.carol).call("GET", TEAM)).status).toBe(404);
    const first = await alice.call<{ member: { effective_role: string } }>("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "VIEWER" });
    expect(first.status).toBe(200);
    MemberRoleResponseSchema.parse(first.body);
    const again = await alice.call("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "VIEWER" });
    expect(again.body).toEqual(first.body);
    expect((await client(emu, M2.carol).call("GET", TEAM)).status).toBe(200);
  });

  it("rule 3: a VIEWER can read but not change the project", async () => {
    await client(emu, M2.alice).call("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "VIEWER" });
    const patch = await client(emu, M2.carol).call<{ code: string; message: string }>("PATCH", TEAM, { project: { name: "renamed" } });
    expect(patch.status).toBe(403);
    expect(patch.body.message).toContain("VIEWER");
  });

  it("rule 3: demoting yourself needs confirm_self_demotion=true (409 confirmation_required without it)", async () => {
    const alice = client(emu, M2.alice);
    const refused = await alice.call<{ code: string }>("PUT", `${TEAM}/members/${M2_USERS.alice}/role`, { role: "EDITOR" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("confirmation_required");
    const confirmed = await alice.call<{ member: { effective_role: string } }>("PUT", `${TEAM}/members/${M2_USERS.alice}/role?confirm_self_demotion=true`, { role: "EDITOR" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.member.effective_role).toBe("EDITOR");
  });

  it("rule 4: DELETE role removes the explicit grant, falls back to the organization default, and repeats as a no-op", async () => {
    const alice = client(emu, M2.alice);
    const removed = await alice.call<{ member: { explicit_role: string | null; effective_role: string | null } }>("DELETE", `${TEAM}/members/${M2_USERS.bob}/role`);
    expect(removed.status).toBe(200);
    expect(removed.body.member).toMatchObject({ explicit_role: null, effective_role: null });
    const again = await alice.call("DELETE", `${TEAM}/members/${M2_USERS.bob}/role`);
    expect(again.status).toBe(200);
    expect((await client(emu, M2.bob).call("GET", TEAM)).status).toBe(404);
  });

  it("rule 4: removing your own grant that would end your ADMIN access needs confirm_self_lockout=true", async () => {
    const alice = client(emu, M2.alice);
    await alice.call("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "ADMIN" });
    const carol = client(emu, M2.carol);
    const refused = await carol.call<{ code: string }>("DELETE", `${TEAM}/members/${M2_USERS.carol}/role`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("confirmation_required");
    expect((await carol.call("DELETE", `${TEAM}/members/${M2_USERS.carol}/role?confirm_self_lockout=true`)).status).toBe(200);
    expect((await carol.call("GET", TEAM)).status).toBe(404);
  });

  it("refuses role changes by a non-ADMIN member with 403", async () => {
    const res = await client(emu, M2.bob).call<{ code: string }>("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "EDITOR" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });
});

describe("project permissions", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: M2_SEED });
  });
  afterAll(() => emu.close());

  it("lists the seeded grant and shows the project to the grantee under /projects/shared", async () => {
    const list = await client(emu, M2.dave).call("GET", "/projects/dave-app-300003/permissions");
    expect(ProjectPermissionListResponseSchema.parse(list.body).project_permissions.map((p) => p.granted_to_email)).toEqual(["erin@example.test"]);
    const shared = await client(emu, M2.erin).call<{ projects: { id: string }[] }>("GET", "/projects/shared");
    expect(shared.body.projects.map((p) => p.id)).toEqual(["dave-app-300003"]);
  });

  it("grants and revokes access by email; the grantee loses access after the revoke", async () => {
    const dave = client(emu, M2.dave);
    expect((await client(emu, M2.bob).call("GET", "/projects/dave-app-300003")).status).toBe(404);
    const granted = await dave.call<{ id: string }>("POST", "/projects/dave-app-300003/permissions", { email: "bob@example.test" });
    expect(granted.status).toBe(200);
    ProjectPermissionSchema.parse(granted.body);
    expect((await dave.call<{ code: string }>("POST", "/projects/dave-app-300003/permissions", { email: "BOB@example.test" })).status).toBe(409);
    expect((await client(emu, M2.bob).call("GET", "/projects/dave-app-300003")).status).toBe(200);
    const revoked = await dave.call<{ revoked_at?: string }>("DELETE", `/projects/dave-app-300003/permissions/${granted.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toBeDefined();
    expect((await client(emu, M2.bob).call("GET", "/projects/dave-app-300003")).status).toBe(404);
  });

  it("lets a grantee (EDITOR) read permissions but not grant them", async () => {
    const res = await client(emu, M2.erin).call<{ code: string }>("POST", "/projects/dave-app-300003/permissions", { email: "carol@example.test" });
    expect(res.status).toBe(403);
  });

  it("answers 400 with issues for a grant without a valid email", async () => {
    const res = await client(emu, M2.dave).call<{ code: string; issues: { path: string }[] }>("POST", "/projects/dave-app-300003/permissions", { email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]?.path).toBe("email");
  });
});

describe("advisors (min_severity)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: M2_SEED });
  });
  afterAll(() => emu.close());

  it.each([
    ["INFO", ["adv-info", "adv-warn", "adv-error"]],
    ["WARN", ["adv-warn", "adv-error"]],
    ["ERROR", ["adv-error"]],
  ])("min_severity=%s returns %j", async (min, ids) => {
    const res = await client(emu, M2.alice).call("GET", `${TEAM}/advisors?database_name=neondb&min_severity=${min}`);
    expect(res.status).toBe(200);
    expect(AdvisorListResponseSchema.parse(res.body).issues.map((i) => i.id)).toEqual(ids);
  });

  it("filters by category", async () => {
    const res = await client(emu, M2.alice).call<{ issues: { id: string }[] }>("GET", `${TEAM}/advisors?database_name=neondb&category=security`);
    expect(res.body.issues.map((i) => i.id)).toEqual(["adv-error"]);
  });

  it.each([
    ["no database_name on a branch with several databases", "", 400],
    ["a database without the data API", "?database_name=analytics", 409],
    ["an unknown branch", "?branch_id=br-missing-1&database_name=neondb", 404],
    ["an unknown severity", "?database_name=neondb&min_severity=LOUD", 400],
  ])("answers %s with %i", async (_case, query, status) => {
    const res = await client(emu, M2.alice).call<{ code: string; request_id: string }>("GET", `${TEAM}/advisors${query}`);
    expect(res.status).toBe(status);
    expect(res.body.request_id).toBeDefined();
  });
});

describe("access settings in a state document", () => {
  it("survive a snapshot used as a seed: member roles, permissions, advisor issues and organization settings", async () => {
    const source = await startTestEmulator({ seed: M2_SEED });
    await client(source, M2.alice).call("PUT", `${TEAM}/members/${M2_USERS.carol}/role`, { role: "VIEWER" });
    const snapshot = source.state.snapshot({ secrets: true });
    await source.close();
    const restored = await startTestEmulator({ seed: snapshot });
    try {
      const members = await client(restored, M2.alice).call<Members>("GET", `${TEAM}/members`);
      expect(members.body.members.map((m) => [m.email, m.explicit_role, m.effective_role])).toEqual([
        ["alice@example.test", null, "ADMIN"],
        ["bob@example.test", "EDITOR", "EDITOR"],
        ["carol@example.test", "VIEWER", "VIEWER"],
      ]);
      expect((await client(restored, M2.erin).call("GET", "/projects/dave-app-300003")).status).toBe(200);
      expect((await client(restored, M2.alice).call("GET", "/projects/flat-app-200002/members")).status).toBe(404);
      const issues = await client(restored, M2.alice).call<{ issues: { id: string }[] }>("GET", `${TEAM}/advisors?database_name=neondb&min_severity=WARN`);
      expect(issues.body.issues.map((i) => i.id)).toEqual(["adv-warn", "adv-error"]);
    } finally {
      await restored.close();
    }
  });
});
