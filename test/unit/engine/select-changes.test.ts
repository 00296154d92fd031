import { describe, expect, it } from "vitest";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { readSelection, selectChanges } from "../../../src/engine/select-changes.js";
import type { Change, ConflictReport } from "../../../src/model/plan.js";

function planned(id: string, dependsOn: string[] = []): PlannedChange {
  const [action, address] = id.split(":") as [Change["action"], string];
  const kind = address.split(".")[0] as Change["kind"];
  return { change: { id, address, kind, action, class: "additive", fields: ["*"], before: null, after: null, reason: "", dependsOn }, op: { type: "bucket-delete", name: address }, planned: {} };
}

const PLAN = [
  planned("update:branch"),
  planned("update:compute", ["update:branch"]),
  planned("create:bucket.a"),
  planned("create:function.api"),
  planned("create:function.web"),
  planned("create:trigger.nightly", ["create:function.api", "create:bucket.a"]),
  planned("create:domain.api.example.com", ["create:function.api"]),
];
const conflict = (kind: ConflictReport["kind"], identifier: string): ConflictReport => ({ kind, identifier, field: "*", current: null, desired: null, reason: "", blocking: true, code: "X" });

describe("selectChanges", () => {
  it.each([
    { targets: ["compute"], exclude: [], selected: ["update:branch", "update:compute"] },
    { targets: ["trigger.*"], exclude: [], selected: ["create:bucket.a", "create:function.api", "create:trigger.nightly"] },
    { targets: ["domain.*.example.com"], exclude: [], selected: ["create:function.api", "create:domain.api.example.com"] },
    { targets: ["function.*"], exclude: [], selected: ["create:function.api", "create:function.web"] },
    { targets: [], exclude: ["function.api"], selected: ["update:branch", "update:compute", "create:bucket.a", "create:function.web"] },
    { targets: [], exclude: ["branch"], selected: ["create:bucket.a", "create:function.api", "create:function.web", "create:trigger.nightly", "create:domain.api.example.com"] },
    { targets: ["trigger.nightly"], exclude: ["bucket.a"], selected: ["create:function.api"] },
  ])("targets $targets, exclude $exclude", ({ targets, exclude, selected }) => {
    const out = selectChanges(PLAN, [], { targets, exclude });
    expect(out.changes.map((p) => p.change.id)).toEqual(selected);
    expect(out.pending.map((p) => p.change.id)).toEqual(PLAN.map((p) => p.change.id).filter((id) => !selected.includes(id)));
  });

  it("keeps conflicts about selected addresses and moves the others to pending", () => {
    const out = selectChanges(PLAN, [conflict("compute", "main"), conflict("bucket", "b")], { targets: ["compute"], exclude: [] });
    expect(out.conflicts.map((c) => c.kind)).toEqual(["compute"]);
    expect(out.pendingConflicts.map((c) => c.identifier)).toEqual(["b"]);
  });

  it("reports patterns that match nothing", () => {
    expect(selectChanges(PLAN, [], { targets: ["function.nope", "bucket.*"], exclude: ["trigger.x"] }).unmatched).toEqual([
      { option: "targets", pattern: "function.nope" },
      { option: "exclude", pattern: "trigger.x" },
    ]);
  });
});

describe("readSelection", () => {
  it("is undefined when nothing narrows the plan", () => {
    expect(readSelection({})).toBeUndefined();
    expect(readSelection({ targets: [], exclude: [] })).toBeUndefined();
  });
  it.each([["hello"], ["function api"], [""]])("rejects %j, naming the entry and the kinds", (pattern) => {
    expect(() => readSelection({ targets: ["bucket.a", pattern] })).toThrow(/targets\[1\].*start it with a kind \(branch, compute/);
  });
});
