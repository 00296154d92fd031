/** The legacy auth routes' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { enableAuth } from "../../../src/emulator/engine/auth.js";
import { newBranchRecord } from "../../../src/emulator/engine/lifecycle.js";
import { completeAuthTransfer, findProviderAuth, legacyTargetBranch, projectDefaultDatabase, startAuthTransfer } from "../../../src/emulator/engine/legacy-auth.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("legacy auth", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("acts on the named branch, else the default branch", () => {
    const dev = newBranchRecord(w.world, w.project, { name: "dev", parent: w.main });
    expect([legacyTargetBranch(w.world, w.project, dev.id), legacyTargetBranch(w.world, w.project, undefined)]).toEqual([dev, w.main]);
    expect(refusal(() => legacyTargetBranch(w.world, w.project, "br-nope"))).toEqual(["not_found", "not_found"]);
  });

  it("finds an integration only for its provider", () => {
    expect(refusal(() => findProviderAuth(w.project, w.main, "stack"))).toEqual(["not_found", "not_found"]);
    const auth = enableAuth(w.world, w.main, { auth_provider: "stack" });
    expect(findProviderAuth(w.project, w.main, "stack")).toBe(auth);
    expect(refusal(() => findProviderAuth(w.project, w.main, "better_auth"))).toEqual(["not_found", "not_found"]);
  });

  it("names the root branch's first database as the project's default, even from another default branch", () => {
    const dev = newBranchRecord(w.world, w.project, { name: "dev", parent: w.main });
    dev.databases.clear();
    w.main.isDefault = false;
    dev.isDefault = true;
    expect(projectDefaultDatabase(w.world, w.project)).toBe("neondb");
  });

  it("transfers an integration to the user once its link is followed, and only once", () => {
    const auth = enableAuth(w.world, w.main, { auth_provider: "stack" });
    expect(refusal(() => startAuthTransfer(w.world, w.project, w.main, "better_auth"))).toEqual(["not_found", "not_found"]);
    const id = startAuthTransfer(w.world, w.project, w.main, "stack");
    expect([auth.transferStatus, auth.ownedBy]).toEqual(["initiated", "neon_managed"]);
    expect(completeAuthTransfer(w.world, id)).toEqual({ projectId: w.project.id, branchId: w.main.id });
    expect([auth.transferStatus, auth.ownedBy]).toEqual(["finished", "user"]);
    expect(refusal(() => completeAuthTransfer(w.world, id))).toEqual(["not_found", "not_found"]);
  });
});
