import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { gatePlan, overrideConflicts } from "../../../src/apply/gate-plan.js";
import { buildPlanDocument } from "../../../src/cli/views/json-plan.js";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { renderPlanMarkdown } from "../../../src/cli/views/markdown-plan.js";
import { renderPlanText } from "../../../src/cli/views/text-plan.js";
import { orderChanges } from "../../../src/diff/order-changes.js";
import { readSelection, selectChanges } from "../../../src/engine/select-changes.js";
import { bucketKind } from "../../../src/kinds/bucket/index.js";
import { bucketStages } from "../../../src/kinds/bucket/stages.js";
import { readReplicaKind } from "../../../src/kinds/readReplica/index.js";
import { readReplicaStages } from "../../../src/kinds/readReplica/stages.js";
import type { KindLight, KindModule, KindStages } from "../../../src/kinds/module.js";
import { FEATURE_KINDS, KIND_NAMES, rankOf } from "../../../src/kinds/list.js";
import { type AnyKindModule, KIND_HANDLERS, KIND_MODULES, diffState } from "../../../src/kinds/modules.js";
import { kindRegistry } from "../../../src/kinds/registry.js";
import type { Change, ConflictReport, PushResult } from "../../../src/model/plan.js";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { NOW, liveWith, policyWith } from "../../helpers/engine-state.js";
import { TARGET, loadResult } from "../cli/fixtures.js";
import { WIDGET } from "./widget-kind.js";

// The registry as a new kind would leave it: its module first in the list, the real ones after. No other file changes.
vi.mock("../../../src/kinds/list.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/kinds/list.js")>();
  const { kindRegistry: derive } = await import("../../../src/kinds/registry.js");
  const { widgetModule } = await import("./widget-kind.js");
  return { ...real, ...derive([widgetModule, ...real.KIND_LIST]) };
});
vi.mock("../../../src/kinds/modules.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/kinds/modules.js")>();
  const { diffKinds } = await import("../../../src/diff/diff-state.js");
  const { widgetModule } = await import("./widget-kind.js");
  const list = [widgetModule, ...real.KIND_MODULES];
  return { ...real, KIND_MODULES: list, diffState: (...args: Parameters<typeof real.diffState>) => diffKinds(list, ...args) };
});

function change(kind: Change["kind"], identifier: string, cls: Change["class"] = "additive"): Change {
  return {
    id: `create:${kind}.${identifier}`, address: `${kind}.${identifier}`, kind, action: "create", class: cls,
    fields: ["*"], before: null, after: { size: 2 }, reason: `${kind} ${identifier} is declared`, dependsOn: [],
  };
}

const planned = (c: Change): PlannedChange => ({ change: c, op: { type: "bucket-delete", name: c.address }, planned: {} });

function widgetConflict(identifier: string): ConflictReport {
  return { kind: WIDGET, identifier, field: "size", current: 1, desired: 2, reason: "cannot shrink", blocking: true, code: "WIDGET_SHRINK" };
}

describe("a kind added to the registry alone", () => {
  const desired = policyWith({ buckets: [{ name: "b", access: "private" }], prune: { ...policyWith().prune, buckets: false } });
  const options = { now: NOW, functionTags: new Map(), allowDataLoss: false };

  it("is a kind selection patterns may start with, and the refusal of an unknown head lists it", () => {
    expect(KIND_NAMES[0]).toBe("widget");
    expect(readSelection({ targets: ["widget.*"] })).toEqual({ targets: ["widget.*"], exclude: [] });
    expect(() => readSelection({ targets: ["gadget.a"] })).toThrow(/start it with a kind \(widget, branch, compute/);
  });

  it("is planned by the registry's diff, ordered by its rank before every other kind, and pruned", () => {
    const result = diffState(desired, liveWith({ buckets: [{ name: "old", access: "private" }] }), options);
    expect(result.changes.map((p) => p.change.address)).toEqual(["widget.b", "bucket.b"]);
    expect(result.unmanaged.map((u) => u.address)).toEqual(["bucket.old", "widget.old"]);
    expect(result.summary).toEqual({ create: 2, update: 0, delete: 0, conflicts: 0 });
  });

  it("is ordered by its rank among ready changes", () => {
    const order = orderChanges([planned(change("bucket", "b")), planned(change(WIDGET, "a")), planned(change("role", "r"))], rankOf);
    expect(order.map((p) => p.change.address)).toEqual(["widget.a", "role.r", "bucket.b"]);
  });

  it("is gated on its feature: a policy declaring it on a branch without the feature gets a blocking conflict and no widget change", () => {
    expect(FEATURE_KINDS.get("widgets")).toBe("widget");
    const result = diffState(desired, liveWith({ buckets: [] }), { ...options, unavailable: Object.fromEntries([[WIDGET, "not in this region"]]) });
    expect(result.conflicts).toEqual([expect.objectContaining({ kind: "widget", code: "FEATURE_UNAVAILABLE", blocking: true, reason: "widgets are not available on this branch: not in this region" })]);
    expect(result.changes.map((p) => p.change.address)).toEqual(["bucket.b"]);
  });

  it("is gated: an override change of it is held, reported under its identifier", () => {
    const held = change(WIDGET, "a", "override");
    expect(overrideConflicts([held], "main")).toEqual([expect.objectContaining({ kind: "widget", identifier: "a", code: "OVERRIDE_NOT_CONFIRMED", changeId: held.id })]);
    const decision = gatePlan({
      changes: [held], conflicts: [], branchName: "main", dryRun: false, updateExisting: false, liveProtected: false, allowProtectedBranch: false, hasConfirm: false,
    });
    expect(decision).toEqual({ action: "refuse", conflicts: [expect.objectContaining({ identifier: "a", code: "OVERRIDE_NOT_CONFIRMED" })] });
  });

  it("is selected by a target on its addresses, with the conflicts about them", () => {
    const picked = selectChanges([planned(change(WIDGET, "a")), planned(change("bucket", "b"))], [widgetConflict("a")], { targets: ["widget.a"], exclude: [] });
    expect(picked.changes.map((p) => p.change.address)).toEqual(["widget.a"]);
    expect(picked.conflicts.map((c) => c.code)).toEqual(["WIDGET_SHRINK"]);
    expect(picked.pending.map((p) => p.change.address)).toEqual(["bucket.b"]);
  });

  it("is rendered as text, Markdown and the JSON document, which its schema accepts", () => {
    const result: PushResult = {
      ...loadResult("plan-mixed"),
      changes: [change(WIDGET, "a")], conflicts: [widgetConflict("b")], unmanaged: [], summary: { create: 1, update: 0, delete: 0, conflicts: 1 },
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

describe("the kinds' modules", () => {
  it("give every operation exactly one handler", () => {
    const declared = KIND_MODULES.flatMap((m: AnyKindModule) => Object.keys(m.handlers));
    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(KIND_HANDLERS).sort()).toEqual([...declared].sort());
  });

  const bucketFacts = { name: "bucket", scope: "named", feature: "buckets", prunedByName: true } as const;
  // The stages its pulled preview and its live fields call for, so each refusal below is about the one thing it leaves out.
  const bucketOtherStages = { pull: bucketKind.pull, read: bucketStages.read, compared: bucketStages.compared };

  it("are refused by the compiler without a handler for each of the kind's operations, or without `declares` for a kind needing a feature", () => {
    // @ts-expect-error: bucket-delete has no handler
    const noDelete: KindModule<"bucket"> = { ...bucketFacts, ...bucketOtherStages, diff: () => undefined, declares: () => false, handlers: { "bucket-create": bucketStages.handlers["bucket-create"] }, seed: () => ({}) };
    // @ts-expect-error: buckets need a platform feature, so the module says when a policy declares one
    const noDeclares: KindModule<"bucket"> = { ...bucketFacts, ...bucketOtherStages, diff: () => undefined, handlers: bucketStages.handlers, seed: () => ({}) };
    // @ts-expect-error: the module states the facts its folder declares (a bucket is named, not one per branch)
    const wrongScope: KindModule<"bucket"> = { ...bucketKind, ...bucketStages, scope: "branch" };
    expect([noDelete, noDeclares, wrongScope].map((m) => Object.keys(m.handlers).length)).toEqual([1, 2, 2]);
  });

  it("are refused by the compiler without a stage their facts call for: a pull beside the tuning, a read for a live slice", () => {
    const readReplicaModule = { ...readReplicaKind, ...readReplicaStages };
    const { pull: _pull, ...withoutPull } = readReplicaModule;
    const { read: _read, ...withoutRead } = readReplicaModule;
    // @ts-expect-error: read replicas add keys to the branch tuning, so a pull writes them back
    const noPull: KindModule<"readReplica"> = withoutPull;
    // @ts-expect-error: read replicas have a slice of the live state, so the module reads it
    const noRead: KindModule<"readReplica"> = withoutRead;
    expect([noPull, noRead].map((m) => m.name)).toEqual(["readReplica", "readReplica"]);
  });

  it("are refused by the compiler without the read and the fingerprint's view of the live fields their facts declare", () => {
    const { read: _read, ...withoutRead } = bucketStages;
    const { compared: _compared, ...withoutCompared } = bucketStages;
    // @ts-expect-error: buckets have fields of the live state (liveFields), so their stages read them
    const noRead: KindStages<"bucket"> = withoutRead;
    // @ts-expect-error: the state fingerprint commits to those fields as the kind compares them
    const noCompared: KindStages<"bucket"> = withoutCompared;
    const complete: KindStages<"bucket"> = { ...withoutRead, ...bucketOtherStages };
    expect([noRead, noCompared, complete].map((m) => Object.keys(m.handlers).length)).toEqual([2, 2, 2]);
  });
});

describe("the light modules", () => {
  it("are joined each to its own kind's stages, in the list's order", () => {
    expect(KIND_MODULES.map((m) => m.name)).toEqual(KIND_NAMES);
    expect(KIND_MODULES.find((m) => m.name === "bucket")?.handlers).toBe(bucketStages.handlers);
  });

  it("are refused by the compiler when their loader brings another kind's stages", async () => {
    // @ts-expect-error: the bucket's light module must load the bucket's stages
    const crossed: KindLight<"bucket"> = { ...bucketKind, stages: async () => readReplicaStages };
    expect(Object.keys((await crossed.stages()).handlers)).toContain("read-replica-create");
  });
});

describe("the registry file", () => {
  it("imports every kind folder's module and exports each one, so declaration files carry every kind's facts", () => {
    const source = readFileSync(new URL("../../../src/kinds/list.ts", import.meta.url), "utf8");
    const imported = [...source.matchAll(/^import \{ (\w+) \} from "\.\/(\w+)\/index\.js";$/gm)].map((m) => [m[2], m[1]]);
    const folders = readdirSync(new URL("../../../src/kinds/", import.meta.url), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(imported.map(([folder]) => folder).sort()).toEqual(folders.sort());
    const exported = /^export \{ ([\w, ]+) \};$/m.exec(source)?.[1]?.split(", ") ?? [];
    expect(exported.sort()).toEqual(imported.map(([, name]) => name).sort());
  });
});

describe("the registry's lookups", () => {
  const registry = kindRegistry([
    { name: "branch", scope: "branch" },
    { name: "bucket", scope: "named", feature: "buckets" },
  ] as const);

  it.each([
    ["a branch-scoped kind by its name alone", "branch", "ignored", "branch"],
    ["a named kind as kind.identifier", "bucket", "a.b", "bucket.a.b"],
  ] as const)("addresses %s", (_name, kind, identifier, address) => {
    expect(registry.addressOf(kind, identifier)).toBe(address);
  });

  it.each(["__proto__", "constructor", "toString", "Bucket", "bucket ", ""])("does not take %j for a kind", (name) => {
    expect(registry.isResourceKind(name)).toBe(false);
  });

  it("ranks by position and maps each feature listing to its kind", () => {
    expect([registry.rankOf("branch"), registry.rankOf("bucket")]).toEqual([0, 1]);
    expect([...registry.FEATURE_KINDS]).toEqual([["buckets", "bucket"]]);
  });
});
