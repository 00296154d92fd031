import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { ResolvedTrigger } from "../../../src/kinds/trigger/fields.js";
import type { LiveTrigger } from "../../../src/kinds/trigger/fields.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, fnWith, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

const TAG = tagWith("C0DE", "C0F1");
const OTHER_TAG = tagWith("0DD0", "C0F1");
const TAGS = new Map([["hello", TAG], ["other", OTHER_TAG]]);
const plan = (desired: ResolvedPolicy, live: LiveState, allowDataLoss = false) => diffState(desired, live, { now: NOW, functionTags: TAGS, allowDataLoss });
const PRUNE_ALL = { functions: true, triggers: true, customDomains: true, buckets: true, roles: false, databases: false };
const schedule = (overrides: Partial<ResolvedTrigger> = {}): ResolvedTrigger =>
  ({ name: "hourly", type: "schedule", function: "hello", cron: "0 * * * *", functionPath: "/", enabled: true, ...overrides }) as ResolvedTrigger;
const liveTrigger = (overrides: Partial<LiveTrigger> = {}): LiveTrigger =>
  ({ id: "t1", name: "hourly", type: "schedule", function: "hello", functionPath: "/", enabled: true, inherited: false, cron: "0 * * * *", ...overrides });
const deployed = [liveFn("hello", TAG), liveFn("other", OTHER_TAG)];
const withFunctions = (overrides: Partial<ResolvedPolicy> = {}) => policyWith({ functions: [fnWith("hello"), fnWith("other")], ...overrides });

describe("buckets", () => {
  it("creates a declared bucket (additive)", () => {
    const result = plan(policyWith({ buckets: [{ name: "uploads", access: "private" }] }), liveWith({ buckets: [] }));
    expect(result.changes[0]?.change).toMatchObject({ id: "create:bucket.uploads", class: "additive", after: { access: "private" } });
  });

  it("blocks access drift", () => {
    const result = plan(policyWith({ buckets: [{ name: "uploads", access: "private" }] }), liveWith({ buckets: [{ name: "uploads", access: "public_read" }] }));
    expect(result.conflicts).toMatchObject([{ code: "BUCKET_ACCESS_IMMUTABLE", current: "public_read", desired: "private" }]);
  });

  it.each([
    ["an empty bucket is an override", new Map<string, boolean>(), false, "override"],
    ["a bucket with objects under allowDataLoss is destructive", new Map([["old", true]]), true, "destructive"],
  ])("prunes: %s", (_label, bucketHasObjects, allowDataLoss, cls) => {
    const result = plan(policyWith({ prune: PRUNE_ALL }), liveWith({ buckets: [{ name: "old", access: "private" }], bucketHasObjects }), allowDataLoss);
    expect(result.changes[0]?.change).toMatchObject({ id: "delete:bucket.old", class: cls });
  });

  it("blocks pruning a bucket with objects without allowDataLoss", () => {
    const result = plan(policyWith({ prune: PRUNE_ALL }), liveWith({ buckets: [{ name: "old", access: "private" }], bucketHasObjects: new Map([["old", true]]) }));
    expect(result.conflicts).toMatchObject([{ code: "BUCKET_NOT_EMPTY" }]);
    expect(result.changes).toEqual([]);
  });

  it("deletes a pruned bucket after the triggers on it", () => {
    const live = liveWith({ buckets: [{ name: "old", access: "private" }], functions: deployed, triggers: [liveTrigger({ name: "onput", type: "storage_object_created", bucket: "old", cron: undefined })] });
    const result = plan(withFunctions({ prune: PRUNE_ALL }), live);
    expect(result.changes.find((c) => c.change.id === "delete:bucket.old")?.change.dependsOn).toEqual(["delete:trigger.onput"]);
  });

  it("blocks pruning a bucket an inherited trigger still uses", () => {
    const live = liveWith({ buckets: [{ name: "old", access: "private" }], functions: deployed, triggers: [liveTrigger({ name: "onput", type: "storage_object_created", bucket: "old", cron: undefined, inherited: true })] });
    const result = plan(withFunctions({ prune: PRUNE_ALL }), live);
    expect(result.conflicts).toMatchObject([{ code: "STILL_REFERENCED", kind: "bucket", identifier: "old" }]);
    expect(result.changes.map((c) => c.change.id)).not.toContain("delete:bucket.old");
  });

  it("reports undeclared buckets as unmanaged without prune", () => {
    expect(plan(policyWith(), liveWith({ buckets: [{ name: "old", access: "private" }] })).unmanaged).toMatchObject([{ address: "bucket.old" }]);
  });
});

describe("triggers", () => {
  it("creates a trigger after its function and bucket", () => {
    const result = plan(
      policyWith({ functions: [fnWith("hello")], buckets: [{ name: "up", access: "private" }], triggers: [schedule({ name: "onput", type: "storage_object_created", bucket: "up" } as Partial<ResolvedTrigger>)] }),
      liveWith({ functions: [], buckets: [], triggers: [] }),
    );
    expect(result.changes.find((c) => c.change.id === "create:trigger.onput")?.change.dependsOn).toEqual(["create:bucket.up", "create:function.hello"]);
  });

  it.each([
    ["cron", { cron: "*/5 * * * *" }, ["cron"]],
    ["enabled and path", { enabled: false, functionPath: "/tick" }, ["functionPath", "enabled"]],
    ["function", { function: "other" }, ["function"]],
  ])("updates a trigger whose %s differs (additive)", (_label, overrides, fields) => {
    const result = plan(withFunctions({ triggers: [schedule(overrides)] }), liveWith({ functions: deployed, triggers: [liveTrigger()] }));
    expect(result.changes[0]?.change).toMatchObject({ id: "update:trigger.hourly", class: "additive", fields });
  });

  it("says an update of an inherited trigger makes a branch-local copy", () => {
    const result = plan(withFunctions({ triggers: [schedule()] }), liveWith({ functions: deployed, triggers: [liveTrigger({ inherited: true, enabled: false })] }));
    expect(result.changes[0]?.change.reason).toContain("branch-local copy");
  });

  it("blocks a type change", () => {
    const result = plan(withFunctions({ triggers: [schedule()] }), liveWith({ functions: deployed, triggers: [liveTrigger({ type: "storage_object_created", bucket: "b" })] }));
    expect(result.conflicts).toMatchObject([{ code: "TRIGGER_TYPE_CHANGED", field: "type" }]);
  });

  it.each([
    ["prunes a branch-local trigger (an override)", liveTrigger({ name: "old" }), PRUNE_ALL, "delete:trigger.old", undefined],
    ["never prunes an inherited trigger", liveTrigger({ name: "old", inherited: true }), PRUNE_ALL, undefined, true],
    ["lists an undeclared trigger without prune", liveTrigger({ name: "old" }), undefined, undefined, undefined],
  ])("%s", (_label, trigger, prune, changeId, inherited) => {
    const result = plan(withFunctions(prune ? { prune: { ...PRUNE_ALL, functions: false } } : {}), liveWith({ functions: deployed, triggers: [trigger] }));
    expect(result.changes.map((c) => c.change.id)).toEqual(changeId ? [changeId] : []);
    if (changeId === undefined) expect(result.unmanaged).toMatchObject([inherited ? { address: "trigger.old", inherited } : { address: "trigger.old" }]);
  });
});

describe("custom domains", () => {
  const domained = (slug: string) => policyWith({ functions: [fnWith("hello", { customDomains: slug === "hello" ? ["a.example.com"] : [] }), fnWith("other", { customDomains: slug === "other" ? ["a.example.com"] : [] })] });

  it("registers a declared hostname after its function", () => {
    const result = plan(domained("hello"), liveWith({ functions: [], customDomains: [] }));
    expect(result.changes.find((c) => c.change.kind === "domain")?.change).toMatchObject({ id: "create:domain.a.example.com", class: "additive", dependsOn: ["create:function.hello"] });
  });

  it("matches a hostname registered in another case or with a trailing dot: nothing to do", () => {
    const live = liveWith({ functions: deployed, customDomains: [{ domain: "A.Example.COM.", entityType: "function", entityId: "hello", cnameTarget: "edge.test" }] });
    const result = plan(domained("hello"), live);
    expect(result.changes).toEqual([]);
    expect(result.unmanaged).toEqual([]);
  });

  it("moves a hostname between functions as a replace (an override)", () => {
    const live = liveWith({ functions: deployed, customDomains: [{ domain: "a.example.com", entityType: "function", entityId: "hello", cnameTarget: "edge.test" }] });
    const result = plan(domained("other"), live);
    expect(result.changes[0]?.change).toMatchObject({ id: "replace:domain.a.example.com", class: "override", before: { function: "hello" }, after: { function: "other" } });
    expect(result.summary).toMatchObject({ create: 1, delete: 1 });
  });

  it("moves a hostname only after the new function's deployment", () => {
    const live = liveWith({
      functions: [liveFn("hello", TAG), liveFn("other", tagWith("0001", "C0F1"))],
      customDomains: [{ domain: "a.example.com", entityType: "function", entityId: "hello", cnameTarget: "edge.test" }],
    });
    const result = plan(domained("other"), live);
    expect(result.changes.map((c) => c.change.id)).toEqual(["update:function.other", "replace:domain.a.example.com"]);
    expect(result.changes[1]?.change.dependsOn).toEqual(["update:function.other"]);
  });

  it("blocks a retarget to a function that never deployed successfully", () => {
    const live = liveWith({
      functions: [liveFn("hello", TAG), liveFn("other", OTHER_TAG, { active: undefined })],
      customDomains: [{ domain: "a.example.com", entityType: "function", entityId: "hello", cnameTarget: "edge.test" }],
    });
    expect(plan(domained("other"), live).conflicts).toMatchObject([{ code: "DOMAIN_TARGET_UNDEPLOYED" }]);
  });

  it("blocks a hostname owned by a non-function resource", () => {
    const live = liveWith({ functions: deployed, customDomains: [{ domain: "a.example.com", entityType: "branch", entityId: "br-x", cnameTarget: "" }] });
    expect(plan(domained("hello"), live).conflicts).toMatchObject([{ code: "DOMAIN_FOREIGN_OWNER" }]);
  });

  it("deregisters an undeclared function hostname under prune, and lists others", () => {
    const live = liveWith({
      functions: deployed,
      customDomains: [
        { domain: "b.example.com", entityType: "function", entityId: "hello", cnameTarget: "edge.test" },
        { domain: "c.example.com", entityType: "branch", entityId: "br-x", cnameTarget: "edge.test" },
      ],
    });
    const result = plan(withFunctions({ prune: { ...PRUNE_ALL, functions: false } }), live);
    expect(result.changes.map((c) => c.change.id)).toEqual(["delete:domain.b.example.com"]);
    expect(result.unmanaged).toMatchObject([{ address: "domain.c.example.com" }]);
  });

  it("warns about a kept hostname without a CNAME target", () => {
    const live = liveWith({ functions: deployed, customDomains: [{ domain: "a.example.com", entityType: "function", entityId: "hello", cnameTarget: "" }] });
    expect(plan(domained("hello"), live).warnings.map((w) => w.code)).toEqual(["NO_CNAME_TARGET"]);
  });
});

describe("the whole plan", () => {
  it("orders by dependencies, then kind, deletes first, then identifier, and fingerprints the compared state only", () => {
    const desired = policyWith({
      auth: "enabled",
      branch: { protected: true },
      buckets: [{ name: "b", access: "private" }, { name: "a", access: "private" }],
      functions: [fnWith("hello", { customDomains: ["z.example.com"] })],
      triggers: [schedule()],
      prune: PRUNE_ALL,
    });
    const live = liveWith({ auth: { enabled: false }, buckets: [{ name: "zz", access: "private" }], functions: [], triggers: [], customDomains: [] });
    const result = plan(desired, live);
    expect(result.changes.map((c) => c.change.id)).toEqual([
      "update:branch", "create:auth", "delete:bucket.zz", "create:bucket.a", "create:bucket.b",
      "create:function.hello", "create:trigger.hourly", "create:domain.z.example.com",
    ]);
    expect(result.summary).toEqual({ create: 6, update: 1, delete: 1, conflicts: 0 });
    const building = { ...live, functions: [] };
    expect(plan(desired, building).stateFingerprint).toBe(result.stateFingerprint);
    expect(result.stateFingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("leaves the state fingerprint empty when asked for none, and plans the same changes, conflicts and warnings", () => {
    const desired = policyWith({ branch: { protected: true }, buckets: [{ name: "a", access: "private" }], functions: [fnWith("hello")], triggers: [schedule()], prune: PRUNE_ALL });
    const live = liveWith({ buckets: [{ name: "zz", access: "public_read" }], functions: [], triggers: [] });
    const whole = plan(desired, live);
    const unfingerprinted = diffState(desired, live, { now: NOW, functionTags: TAGS, allowDataLoss: false, stateFingerprint: false });
    expect(unfingerprinted.stateFingerprint).toBe("");
    expect({ ...unfingerprinted, stateFingerprint: whole.stateFingerprint }).toEqual(whole);
    expect(whole.changes.length).toBeGreaterThan(0);
  });

  it("turns a feature-unavailable read into a conflict for a declared kind", () => {
    const result = diffState(policyWith({ buckets: [{ name: "a", access: "private" }] }), liveWith(), {
      now: NOW, functionTags: new Map(), allowDataLoss: false, unavailable: { bucket: "region_unavailable", function: "x" },
    });
    expect(result.conflicts).toMatchObject([{ code: "FEATURE_UNAVAILABLE", kind: "bucket" }]);
    expect(result.changes).toEqual([]);
  });

  it("warns once per deprecated preview key", () => {
    expect(plan(policyWith({ deprecatedKeys: ["preview.functions"] }), liveWith()).warnings.map((w) => w.code)).toEqual(["DEPRECATED_PREVIEW_KEY"]);
  });
});
