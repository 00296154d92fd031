/** API keys' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKey, listApiKeys, orgKeyOwner, personalKeyOwner, revokeApiKey } from "../../../src/emulator/engine/api-keys.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("personal API keys", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("creates a key whose token authenticates its user, lists it until it is revoked once", () => {
    const owner = personalKeyOwner(w.principal);
    const before = listApiKeys(w.world, owner).length;
    const { record, token } = createApiKey(w.world, owner, { name: "ci", createdBy: owner.accountId });
    expect(w.world.authenticate(token)?.userId).toBe(w.principal.userId);
    expect(listApiKeys(w.world, owner).map((k) => k.name)).toHaveLength(before + 1);
    expect(revokeApiKey(w.world, owner, record.id)).toBe(record);
    expect([w.world.authenticate(token), listApiKeys(w.world, owner).includes(record)]).toEqual([null, false]);
    expect(refusal(() => revokeApiKey(w.world, owner, record.id))).toEqual(["not_found", "not_found"]);
  });

  it("authenticates each token as its own key when tokens alternate, and a token only in the world that holds it", () => {
    const owner = personalKeyOwner(w.principal);
    const a = createApiKey(w.world, owner, { name: "a", createdBy: owner.accountId });
    const b = createApiKey(w.world, owner, { name: "b", createdBy: owner.accountId });
    const other = unitWorld();
    const seen = [a.token, b.token, a.token, `${a.token}x`, a.token].map((token) => w.world.authenticate(token)?.key.name ?? null);
    expect([...seen, other.world.authenticate(a.token)]).toEqual(["a", "b", "a", null, "a", null]);
  });
});

describe("organization API keys", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
    w.world.orgs.set("org-acme", { id: "org-acme", name: "Acme", plan: "scale", platformFeatures: true, members: new Map([[w.principal.userId, "admin"]]), projectRoleManagement: true, memberDefaultProjectRole: "EDITOR", createdAt: 0 });
  });

  it("lets an admin member create a key limited to one of the organization's projects, and refuses other projects", () => {
    w.project.orgId = "org-acme";
    const owner = orgKeyOwner(w.world, w.principal, "org-acme");
    const { record, token } = createApiKey(w.world, owner, { name: "deploy", createdBy: w.principal.userId, projectId: w.project.id });
    expect([record.kind, record.projectId, w.world.authenticate(token)?.orgId]).toEqual(["org", w.project.id, "org-acme"]);
    expect(refusal(() => createApiKey(w.world, owner, { name: "x", createdBy: w.principal.userId, projectId: "prj-elsewhere" }))).toEqual(["not_found", "not_found"]);
    expect(refusal(() => personalKeyOwner(w.world.authenticate(token)!))).toEqual(["forbidden", "forbidden"]);
  });

  it("hides an organization from non-members and refuses members who are not admins or project-limited keys", () => {
    expect(refusal(() => orgKeyOwner(w.world, w.principal, "org-other"))).toEqual(["not_found", "not_found"]);
    const owner = orgKeyOwner(w.world, w.principal, "org-acme");
    w.project.orgId = "org-acme";
    const limited = w.world.authenticate(createApiKey(w.world, owner, { name: "deploy", createdBy: w.principal.userId, projectId: w.project.id }).token)!;
    expect(refusal(() => orgKeyOwner(w.world, limited, "org-acme"))).toEqual(["forbidden", "forbidden"]);
    w.world.orgs.get("org-acme")!.members.set(w.principal.userId, "member");
    expect(refusal(() => orgKeyOwner(w.world, w.principal, "org-acme"))).toEqual(["forbidden", "forbidden"]);
  });
});
