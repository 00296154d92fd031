import { describe, expect, it } from "vitest";
import { type GateInput, gatePlan } from "../../../src/apply/gate-plan.js";
import type { Change, ConflictReport } from "../../../src/model/plan.js";

const change = (cls: Change["class"]): Change => ({
  id: cls === "additive" ? "create:bucket.a" : "update:compute", address: cls === "additive" ? "bucket.a" : "compute",
  kind: cls === "additive" ? "bucket" : "compute", action: cls === "additive" ? "create" : "update", class: cls,
  fields: ["*"], before: null, after: null, reason: "r", dependsOn: [],
});
const blocking: ConflictReport = { kind: "bucket", identifier: "a", field: "access", current: "x", desired: "y", reason: "r", blocking: true, code: "BUCKET_ACCESS_IMMUTABLE" };
const base: GateInput = {
  branchName: "main", liveProtected: false, changes: [], conflicts: [], dryRun: false, updateExisting: false, allowProtectedBranch: false, hasConfirm: false,
};

describe("gatePlan", () => {
  it.each<[string, Partial<GateInput>, string, string[]?]>([
    ["a dry run reports blocking conflicts and held overrides without gating", { dryRun: true, conflicts: [blocking], changes: [change("override")] }, "report", ["BUCKET_ACCESS_IMMUTABLE", "OVERRIDE_NOT_CONFIRMED"]],
    ["a dry run with updateExisting reports blocking conflicts only (plan)", { dryRun: true, updateExisting: true, changes: [change("override")] }, "report", []],
    ["a blocking conflict refuses before confirm is considered", { conflicts: [blocking], hasConfirm: true, updateExisting: true }, "refuse", ["BUCKET_ACCESS_IMMUTABLE"]],
    ["an empty plan proceeds without confirm, even on a protected branch", { hasConfirm: true, liveProtected: true }, "proceed"],
    ["an override without updateExisting or confirm refuses", { changes: [change("override")] }, "refuse", ["OVERRIDE_NOT_CONFIRMED"]],
    ["a destructive change without updateExisting or confirm refuses", { changes: [change("destructive")] }, "refuse", ["OVERRIDE_NOT_CONFIRMED"]],
    ["an override with updateExisting proceeds", { changes: [change("override")], updateExisting: true }, "proceed"],
    ["additive changes proceed", { changes: [change("additive")] }, "proceed"],
    ["a protected branch without confirm is not blocked by allowProtectedBranch: false", { changes: [change("additive")], liveProtected: true }, "proceed"],
    ["a protected branch with confirm asks", { changes: [change("additive")], liveProtected: true, hasConfirm: true }, "confirm"],
    ["a protected branch with confirm and allowProtectedBranch proceeds", { changes: [change("additive")], liveProtected: true, hasConfirm: true, allowProtectedBranch: true }, "proceed"],
    ["an override with confirm asks", { changes: [change("override")], hasConfirm: true }, "confirm"],
    ["an override with confirm and updateExisting proceeds", { changes: [change("override")], hasConfirm: true, updateExisting: true }, "proceed"],
  ])("%s", (_label, input, action, codes) => {
    const decision = gatePlan({ ...base, ...input });
    expect(decision.action).toBe(action);
    if (codes !== undefined && "conflicts" in decision) expect(decision.conflicts.map((c) => c.code)).toEqual(codes);
  });

  it("builds the confirm context with both reasons in order, never flagging additive-only plans as overrides", () => {
    const decision = gatePlan({ ...base, changes: [change("additive"), change("override")], liveProtected: true, hasConfirm: true });
    expect(decision).toMatchObject({
      action: "confirm",
      reasons: ["protected-branch", "override-updates"],
      context: { branchName: "main", protectedBranch: true, overrideUpdates: true, changes: [{ id: "update:compute" }] },
    });
    const additive = gatePlan({ ...base, changes: [change("additive")], liveProtected: true, hasConfirm: true });
    expect(additive).toMatchObject({ context: { overrideUpdates: false, protectedBranch: true } });
  });

  it("names the held change in each OVERRIDE_NOT_CONFIRMED conflict", () => {
    const decision = gatePlan({ ...base, changes: [change("override")] });
    expect(decision).toMatchObject({ conflicts: [{ changeId: "update:compute", blocking: false, kind: "compute", identifier: "main" }] });
  });
});
