import { describe, expect, it, vi } from "vitest";
import { gatePlan, overrideConflicts } from "../../../src/apply/gate-plan.js";
import { buildPlanDocument } from "../../../src/cli/views/json-plan.js";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { renderPlanMarkdown } from "../../../src/cli/views/markdown-plan.js";
import { renderPlanText } from "../../../src/cli/views/text-plan.js";
import { orderChanges } from "../../../src/diff/order-changes.js";
import { readSelection, selectChanges } from "../../../src/engine/select-changes.js";
import { KIND_NAMES, isResourceKind } from "../../../src/kinds/index.js";
import { kindRegistry } from "../../../src/kinds/registry.js";
import type { Change, ConflictReport, PushResult } from "../../../src/model/plan.js";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { TARGET, loadResult } from "../cli/fixtures.js";

// The registry as a new kind would leave it: one entry more, first in rank. No other file changes.
vi.mock("../../../src/kinds/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/kinds/index.js")>();
  const { kindRegistry: derive } = await import("../../../src/kinds/registry.js");
  const list = [{ name: "widget", scope: "named" }, ...real.KINDS] as const;
  return { ...real, KINDS: list, ...derive(list) };
});

function widgetKind() {
  const name = "widget";
  if (!isResourceKind(name)) throw new Error("the mocked registry lacks the widget kind");
  return name;
}

function change(kind: Change["kind"], identifier: string, cls: Change["class"] = "additive"): Change {
  return {
    id: `create:${kind}.${identifier}`, address: `${kind}.${identifier}`, kind, action: "create", class: cls,
    fields: ["*"], before: null, after: { size: 2 }, reason: `${kind} ${identifier} is declared`, dependsOn: [],
  };
}

const planned = (c: Change): PlannedChange => ({ change: c, op: { type: "bucket-delete", name: c.address } });

function widgetConflict(identifier: string): ConflictReport {
  return { kind: widgetKind(), identifier, field: "size", current: 1, desired: 2, reason: "cannot shrink", blocking: true, code: "WIDGET_SHRINK" };
}

describe("a kind added to the registry alone", () => {
  it("is a kind selection patterns may start with, and the refusal of an unknown head lists it", () => {
    expect(KIND_NAMES[0]).toBe("widget");
    expect(readSelection({ targets: ["widget.*"] })).toEqual({ targets: ["widget.*"], exclude: [] });
    expect(() => readSelection({ targets: ["gadget.a"] })).toThrow(/start it with a kind \(widget, branch, compute/);
  });

  it("is ordered by its rank: before every other kind among ready changes", () => {
    const order = orderChanges([planned(change("bucket", "b")), planned(change(widgetKind(), "a")), planned(change("role", "r"))]);
    expect(order.map((p) => p.change.address)).toEqual(["widget.a", "role.r", "bucket.b"]);
  });

  it("is gated: an override change of it is held, reported under its identifier", () => {
    const held = change(widgetKind(), "a", "override");
    expect(overrideConflicts([held], "main")).toEqual([expect.objectContaining({ kind: "widget", identifier: "a", code: "OVERRIDE_NOT_CONFIRMED", changeId: held.id })]);
    const decision = gatePlan({
      changes: [held], conflicts: [], branchName: "main", dryRun: false, updateExisting: false, liveProtected: false, allowProtectedBranch: false, hasConfirm: false,
    });
    expect(decision).toEqual({ action: "refuse", conflicts: [expect.objectContaining({ identifier: "a", code: "OVERRIDE_NOT_CONFIRMED" })] });
  });

  it("is selected by a target on its addresses, with the conflicts about them", () => {
    const picked = selectChanges([planned(change(widgetKind(), "a")), planned(change("bucket", "b"))], [widgetConflict("a")], { targets: ["widget.a"], exclude: [] });
    expect(picked.changes.map((p) => p.change.address)).toEqual(["widget.a"]);
    expect(picked.conflicts.map((c) => c.code)).toEqual(["WIDGET_SHRINK"]);
    expect(picked.pending.map((p) => p.change.address)).toEqual(["bucket.b"]);
  });

  it("is rendered as text, Markdown and the JSON document, which its schema accepts", () => {
    const result: PushResult = {
      ...loadResult("plan-mixed"),
      changes: [change(widgetKind(), "a")], conflicts: [widgetConflict("b")], unmanaged: [], summary: { create: 1, update: 0, delete: 0, conflicts: 1 },
    };
    const text: string = renderPlanText(result);
    expect(text).toMatch(/^ {2}\+ widget\.a$/m);
    expect(text).toMatch(/^ {2}! widget\.b {2}WIDGET_SHRINK$/m);
    expect(renderPlanMarkdown(result, TARGET)).toContain("widget.b");
    const doc = planDocumentSchema.parse(buildPlanDocument({ command: "plan", cliVersion: "0.0.0", target: TARGET, result }));
    expect(doc.changes.map((c) => [c.kind, c.address])).toEqual([["widget", "widget.a"]]);
    expect(doc.conflicts.map((c) => c.address)).toEqual(["widget.b"]);
  });
});

describe("the registry's lookups", () => {
  const registry = kindRegistry([
    { name: "branch", scope: "branch" },
    { name: "bucket", scope: "named", feature: "buckets" },
  ] as const);

  it.each([
    ["a branch-scoped kind by its name alone, reported under the branch", "branch", "branch", "main"],
    ["a named kind as kind.identifier, reported under the identifier", "bucket", "bucket.a.b", "a.b"],
  ] as const)("addresses %s", (_name, kind, address, identifier) => {
    expect(registry.addressOf(kind, identifier === "main" ? "ignored" : identifier)).toBe(address);
    expect(registry.identifierAt(kind, address, "main")).toBe(identifier);
  });

  it.each(["__proto__", "constructor", "toString", "Bucket", "bucket ", ""])("does not take %j for a kind", (name) => {
    expect(registry.isResourceKind(name)).toBe(false);
  });

  it("ranks by position and maps each feature listing to its kind", () => {
    expect([registry.rankOf("branch"), registry.rankOf("bucket")]).toEqual([0, 1]);
    expect([...registry.FEATURE_KINDS]).toEqual([["buckets", "bucket"]]);
  });
});
