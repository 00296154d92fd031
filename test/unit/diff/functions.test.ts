import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/diff/diff-state.js";
import type { FunctionTag } from "../../../src/model/planned-change.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveFunction } from "../../../src/model/live-state.js";
import { NOW, fnWith, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

const TAG = tagWith("C0DE", "C0F1");
const plan = (desired: ResolvedPolicy, functions: LiveFunction[], tag: FunctionTag = TAG) =>
  diffState(desired, liveWith({ functions }), { now: NOW, functionTags: new Map([["hello", tag]]), allowDataLoss: false });
const one = (env: Record<string, string> = {}, name = "hello") => policyWith({ functions: [fnWith("hello", { env, name })] });

describe("function change detection", () => {
  it("creates an absent function with its archive and renames it after the build", () => {
    const result = plan(one({ KEY: "v" }, "Hello"), []);
    expect(result.changes[0]?.change).toMatchObject({
      id: "create:function.hello", class: "additive", fields: ["*"], before: null,
      after: { name: "Hello", runtime: "nodejs24", codeTag: "C0DE", env: { KEY: "[redacted]" } },
    });
    expect(result.changes[0]?.op).toMatchObject({ deploy: true, withZip: true, rename: true, marker: TAG.marker });
  });

  it.each([
    ["a function without a marker", liveFn("hello", null, { envNames: ["KEY"] }), ["code", "env"], true, ["UNMARKED_FUNCTION"]],
    ["a failed current deployment", liveFn("hello", TAG, { envNames: ["KEY"], current: { id: 2, status: "failed", runtime: "nodejs24", error: "boom" } }), ["code"], true, []],
    ["a code change", liveFn("hello", tagWith("0001", "C0F1"), { envNames: ["KEY"] }), ["code", "env"], true, []],
    ["an env value change", liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEY"] }), ["env"], false, []],
    ["an added env name", liveFn("hello", tagWith("C0DE", "0002")), ["env.KEY"], false, []],
    ["a declared env name missing while tags match", liveFn("hello", TAG), ["env.KEY"], false, []],
  ])("redeploys %s", (_label, live, fields, withZip, warnings) => {
    const result = plan(one({ KEY: "v" }), [live]);
    expect(result.changes.map((c) => c.change.fields)).toEqual([fields]);
    expect(result.changes[0]?.op).toMatchObject({ deploy: true, withZip });
    expect(result.warnings.map((w) => w.code)).toEqual(warnings);
  });

  it("quotes the platform's error for a failed deployment", () => {
    const result = plan(one(), [liveFn("hello", TAG, { current: { id: 2, status: "failed", runtime: "nodejs24", error: "SyntaxError" } })]);
    expect(result.changes[0]?.change.reason).toContain("SyntaxError");
  });

  it("shows an env value change with both sides redacted, naming the names whose value may have changed", () => {
    const result = plan(one({ KEY: "new" }), [liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEY"] })]);
    expect(result.changes[0]?.change).toMatchObject({
      fields: ["env"], before: { env: { KEY: "[redacted]" } }, after: { env: { KEY: "[redacted]" } },
      reason: "the value of KEY may have changed (the platform keeps no values to compare); the archive is kept",
    });
    expect(JSON.stringify(result)).not.toContain("new");
  });

  it("keeps a possible value change visible when names are added and removed in the same deployment", () => {
    const live = liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEEP", "OLD", "EXTRA"] });
    const result = plan(one({ KEEP: "v", NEW: "n", OLD: "" }), [live]);
    expect(result.changes[0]?.change).toMatchObject({
      fields: ["env.NEW", "env.OLD", "env"],
      reason: "env.NEW, env.OLD changed; the value of KEEP may have changed (the platform keeps no values to compare); the archive is kept; " +
        'it deletes the deployed env variable OLD (declared ""), an override that needs updateExisting (CLI: --update-existing)',
    });
  });

  it.each([
    ["deleting a deployed variable overrides an existing setting", { KEY: "v", SECRET: "" }, ["KEY", "SECRET"], "override"],
    ["adding a variable is additive", { KEY: "v", NEW: "n" }, ["KEY"], "additive"],
    ["declaring an absent variable empty deletes nothing and changes nothing", { KEY: "v", GONE: "" }, ["KEY"], undefined],
  ])("%s", (_label, env, deployed, cls) => {
    const result = plan(one(env), [liveFn("hello", TAG, { envNames: deployed })]);
    expect(result.changes[0]?.change.class).toBe(cls);
  });

  it.each(["toString", "constructor", "valueOf"])("lists a deployed, undeclared env name %s as unmanaged", (name) => {
    const result = plan(one({ KEY: "v" }), [liveFn("hello", TAG, { envNames: ["KEY", name] })]);
    expect(result.unmanaged.map((u) => u.address)).toEqual([`function.hello.env.${name}`]);
    expect(result.changes).toEqual([]);
  });

  it.each(["toString", "constructor", "valueOf"])("plans a declared env name %s that is not deployed as added, never as already there", (name) => {
    const result = plan(one({ [name]: "v" }), [liveFn("hello", TAG)]);
    expect(result.changes[0]?.change).toMatchObject({ fields: [`env.${name}`], after: { env: { [name]: "[redacted]" } } });
  });

  it("compares only declared env names: an undeclared deployed name is unmanaged, not part of the change", () => {
    const result = plan(one({ KEEP: "v" }), [liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEEP", "EXTRA"] })]);
    expect(result.changes[0]?.change).toMatchObject({ before: { env: { KEEP: "[redacted]" } }, after: { env: { KEEP: "[redacted]" } } });
    expect(result.unmanaged.map((u) => u.address)).toEqual(["function.hello.env.EXTRA"]);
  });

  it("says when the fingerprint mode changed, since then no value need have changed", () => {
    const result = plan(one({ KEY: "v" }), [liveFn("hello", tagWith("C0DE", "K0002"), { envNames: ["KEY"] })], tagWith("C0DE", "H0003"));
    expect(result.changes[0]?.change.reason).toContain("the fingerprint mode changed (SVC_FINGERPRINT_KEY set or unset)");
  });

  it("deletes a name written as \"\" and drops the stale marker in the same deployment", () => {
    const old = tagWith("C0DE", "0002");
    const result = plan(one({ OLD: "" }), [liveFn("hello", old, { envNames: ["OLD"] })]);
    expect(result.changes[0]?.change).toMatchObject({ fields: ["env.OLD"], before: { env: { OLD: "[redacted]" } }, after: { env: {} } });
    expect(result.changes[0]?.op).toMatchObject({ withZip: false, staleMarkers: [old.marker] });
  });

  it("plans nothing for a converged function, and warns while its build is in progress", () => {
    expect(plan(one({ KEY: "v" }), [liveFn("hello", TAG, { envNames: ["KEY"] })]).changes).toEqual([]);
    const building = plan(one(), [liveFn("hello", TAG, { current: { id: 3, status: "building", runtime: "nodejs24" } })]);
    expect(building.changes).toEqual([]);
    expect(building.warnings.map((w) => w.code)).toEqual(["DEPLOYMENT_IN_PROGRESS"]);
  });

  it("updates only the display name when it differs", () => {
    const result = plan(one({}, "Hello there"), [liveFn("hello", TAG)]);
    expect(result.changes[0]?.change).toMatchObject({ id: "update:function.hello", fields: ["name"], class: "additive" });
    expect(result.changes[0]?.op).toMatchObject({ deploy: false, rename: true });
  });

  it("lists deployed env names the policy omits as unmanaged", () => {
    const result = plan(one(), [liveFn("hello", TAG, { envNames: ["EXTRA"] })]);
    expect(result.unmanaged).toMatchObject([{ address: "function.hello.env.EXTRA", kind: "env", identifier: "EXTRA" }]);
  });
});

describe("function pruning", () => {
  const prune = { functions: true, triggers: false, customDomains: false, buckets: false, roles: false, databases: false };

  it("deletes an undeclared function owned by the branch (an override)", () => {
    const result = diffState(policyWith({ prune }), liveWith({ functions: [liveFn("old", TAG)] }), { now: NOW, functionTags: new Map(), allowDataLoss: false });
    expect(result.changes[0]?.change).toMatchObject({ id: "delete:function.old", class: "override", after: null });
  });

  it("never prunes an inherited function and reports it unmanaged", () => {
    const live = liveWith({ functions: [liveFn("old", TAG)], parentFunctionSlugs: ["old"] });
    const result = diffState(policyWith({ prune }), live, { now: NOW, functionTags: new Map(), allowDataLoss: false });
    expect(result.changes).toEqual([]);
    expect(result.unmanaged).toMatchObject([{ address: "function.old", inherited: true }]);
  });

  it("reports an undeclared function as unmanaged without prune", () => {
    const result = diffState(policyWith(), liveWith({ functions: [liveFn("old", TAG)] }), { now: NOW, functionTags: new Map(), allowDataLoss: false });
    expect(result.unmanaged).toMatchObject([{ address: "function.old", kind: "function" }]);
  });

  it("blocks pruning a function a kept trigger still uses", () => {
    const live = liveWith({
      functions: [liveFn("old", TAG)],
      triggers: [{ id: "t1", name: "tick", type: "schedule", function: "old", functionPath: "/", enabled: true, inherited: true, cron: "* * * * *" }],
    });
    const result = diffState(policyWith({ prune }), live, { now: NOW, functionTags: new Map(), allowDataLoss: false });
    expect(result.conflicts).toMatchObject([{ code: "STILL_REFERENCED", kind: "function", identifier: "old" }]);
  });

  it("deletes a function after deleting its trigger and hostname", () => {
    const live = liveWith({
      functions: [liveFn("old", TAG)],
      triggers: [{ id: "t1", name: "tick", type: "schedule", function: "old", functionPath: "/", enabled: true, inherited: false, cron: "* * * * *" }],
      customDomains: [{ domain: "old.example.com", entityType: "function", entityId: "old", cnameTarget: "edge.test" }],
    });
    const result = diffState(policyWith({ prune: { functions: true, triggers: true, customDomains: true, buckets: false, roles: false, databases: false } }), live, { now: NOW, functionTags: new Map(), allowDataLoss: false });
    const del = result.changes.find((c) => c.change.id === "delete:function.old");
    expect(del?.change.dependsOn).toEqual(["delete:domain.old.example.com", "delete:trigger.tick"]);
    expect(result.changes.map((c) => c.change.id)).toEqual(["delete:trigger.tick", "delete:domain.old.example.com", "delete:function.old"]);
  });
});
