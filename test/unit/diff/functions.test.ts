import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { FunctionTag } from "../../../src/model/planned-change.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveFunction } from "../../../src/kinds/function/fields.js";
import { NOW, fnWith, legacyMarker, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

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
    expect(result.changes[0]?.op).toMatchObject({ deploy: true, withZip: true, rename: true, markers: TAG.markers });
  });

  it.each([
    ["a function without a marker", liveFn("hello", null, { envNames: ["KEY"] }), ["code", "env"], true, ["UNMARKED_FUNCTION"]],
    ["a failed current deployment", liveFn("hello", TAG, { envNames: ["KEY"], current: { id: 2, status: "failed", runtime: "nodejs24", error: "boom" } }), ["code"], true, []],
    ["a code change (its env untouched)", liveFn("hello", tagWith("0001", "C0F1"), { envNames: ["KEY"] }), ["code"], true, []],
    ["a code change with an env value change", liveFn("hello", tagWith("0001", "0002"), { envNames: ["KEY"] }), ["code", "env"], true, []],
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

  it("shows a hardened env value change with both sides redacted, naming the names whose value may have changed", () => {
    const result = plan(one({ KEY: "new" }), [liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEY"] })]);
    expect(result.changes[0]?.change).toMatchObject({
      fields: ["env"], before: { env: { KEY: "[redacted]" } }, after: { env: { KEY: "[redacted]" } },
      reason: "the value of KEY may have changed (without SVC_FINGERPRINT_KEY one fingerprint covers all values together); the archive is kept",
    });
    expect(JSON.stringify(result)).not.toContain("new");
  });

  it("keeps a possible value change visible when names are added and removed in the same deployment", () => {
    const live = liveFn("hello", tagWith("C0DE", "0002"), { envNames: ["KEEP", "OLD", "EXTRA"] });
    const result = plan(one({ KEEP: "v", NEW: "n", OLD: "" }), [live]);
    expect(result.changes[0]?.change).toMatchObject({
      fields: ["env.NEW", "env.OLD", "env"],
      reason: "env.NEW, env.OLD changed; the value of KEEP may have changed (without SVC_FINGERPRINT_KEY one fingerprint covers all values together); the archive is kept; " +
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

  it("says when the fingerprint mode changed since an older svc-config's marker, since then no value need have changed", () => {
    const result = plan(one({ KEY: "v" }), [liveFn("hello", null, { envNames: ["KEY"], markers: [legacyMarker("C0DE", "K0002")] })], tagWith("C0DE", "0003"));
    expect(result.changes[0]?.change.reason).toContain("the fingerprint mode changed (SVC_FINGERPRINT_KEY set or unset)");
  });

  it("deletes a name written as \"\" and drops the stale marker in the same deployment", () => {
    const old = tagWith("C0DE", "0002");
    const result = plan(one({ OLD: "" }), [liveFn("hello", old, { envNames: ["OLD"] })]);
    expect(result.changes[0]?.change).toMatchObject({ fields: ["env.OLD"], before: { env: { OLD: "[redacted]" } }, after: { env: {} } });
    expect(result.changes[0]?.op).toMatchObject({ withZip: false, staleMarkers: old.markers });
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

describe("function env values, named by the fingerprint", () => {
  const KEY_A = "EK1111";
  const keyed = (code: string, env: string, varTags: Record<string, string>) => tagWith(code, `${KEY_A}${env}`, varTags);
  const OURS = keyed("C0DE", "AAAA", { KEY: "00000001", OTHER: "00000002" });
  const two = policyWith({ functions: [fnWith("hello", { env: { KEY: "k", OTHER: "o" } })] });
  const deployedWith = (tag: ReturnType<typeof keyed>, overrides: Partial<LiveFunction> = {}) => liveFn("hello", tag, { envNames: ["KEY", "OTHER"], ...overrides });

  it.each([
    ["names exactly the variable whose value changed", keyed("C0DE", "BBBB", { KEY: "00000001", OTHER: "0000000F" }), ["env.OTHER"], false, "the value of OTHER changed; the archive is kept"],
    ["names every variable whose value changed", keyed("C0DE", "BBBB", { KEY: "0000000E", OTHER: "0000000F" }), ["env.KEY", "env.OTHER"], false, "the value of KEY, OTHER changed; the archive is kept"],
    ["says nothing about env for a code edit that leaves the env alone", keyed("0001", "AAAA", { KEY: "00000001", OTHER: "00000002" }), ["code"], true, "the function's code changed"],
    ["names the changed value alongside a code edit", keyed("0001", "BBBB", { KEY: "00000001", OTHER: "0000000F" }), ["code", "env.OTHER"], true, "the function's code changed; the value of OTHER changed"],
    [
      "says a rotated key is why values cannot be compared",
      tagWith("C0DE", "EK2222AAAA", { KEY: "00000001", OTHER: "00000002" }), ["env"], false,
      "the value of one or more of KEY, OTHER may have changed (the fingerprint key (SVC_FINGERPRINT_KEY) changed since the last deployment, so no value can be compared); the archive is kept",
    ],
    [
      "says a key set since a hardened deployment is why values cannot be compared",
      tagWith("C0DE", "0003"), ["env"], false,
      "the value of one or more of KEY, OTHER may have changed (the last deployment was fingerprinted without a key and SVC_FINGERPRINT_KEY is set now, so no value can be compared); the archive is kept",
    ],
  ])("%s", (_label, live, fields, withZip, reason) => {
    const result = plan(two, [deployedWith(live)], OURS);
    expect(result.changes.map((c) => c.change)).toMatchObject([{ fields, reason }]);
    expect(result.changes[0]?.op).toMatchObject({ deploy: true, withZip, markers: OURS.markers });
  });

  it("plans nothing when the env tag matches, and writes the main marker first with the variable tags packed after it", () => {
    expect(plan(two, [deployedWith(OURS)], OURS).changes).toEqual([]);
    expect(OURS.markers).toEqual(["SVC_FINGERPRINT_C0DE_EK1111AAAA", "SVC_FINGERPRINT_V0000000100000002"]);
  });

  it("falls back to 'may have changed' when the deployment carries no per-variable tags", () => {
    const bare = { ...keyed("C0DE", "BBBB", {}), markers: ["SVC_FINGERPRINT_C0DE_EK1111BBBB"] };
    const result = plan(two, [deployedWith(bare)], OURS);
    expect(result.changes[0]?.change).toMatchObject({ fields: ["env"], reason: expect.stringContaining("the last deployment carries no per-variable fingerprint") });
  });

  it("compares a marker an older svc-config wrote: the same config tag plans nothing, another one redeploys env-only and replaces it", () => {
    const old = legacyMarker("C0DE", OURS.legacyConfigTag ?? "");
    expect(plan(two, [deployedWith(OURS, { markers: [old] })], OURS).changes).toEqual([]);
    const stale = legacyMarker("C0DE", "H0000000000000000009");
    const result = plan(two, [deployedWith(OURS, { markers: [stale] })], OURS);
    expect(result.changes[0]?.change).toMatchObject({ fields: ["env"], reason: expect.stringContaining("an older svc-config fingerprinted all values together") });
    expect(result.changes[0]?.op).toMatchObject({ withZip: false, markers: OURS.markers, staleMarkers: [stale] });
  });

  it("redeploys an older marker's function with its archive when the code changed, saying values cannot be compared", () => {
    const result = plan(two, [deployedWith(OURS, { markers: [legacyMarker("0001", "K0000000000000000009")] })], OURS);
    expect(result.changes[0]?.change).toMatchObject({ fields: ["code", "env"], reason: expect.stringContaining("the value of one or more of KEY, OTHER may have changed (the platform keeps no values to compare)") });
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
