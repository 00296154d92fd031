import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { ResolvedTrigger } from "../../../src/kinds/trigger/fields.js";
import type { LiveTrigger } from "../../../src/kinds/trigger/fields.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, fnWith, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

const TAG = tagWith("C0DE", "C0F1");
const plan = (desired: ResolvedPolicy, live: LiveState) =>
  diffState(desired, live, { now: NOW, functionTags: new Map([["hello", TAG], ["other", tagWith("0DD0", "C0F1")]]), allowDataLoss: false });
const PRUNE_ALL = { functions: true, triggers: true, customDomains: true, buckets: true, roles: false, databases: false };
const builtinDataApi = { state: "enabled" as const, database: "neondb", authProvider: "builtin" as const, settings: {} };
const externalDataApi = { ...builtinDataApi, authProvider: "external" as const, jwksUrl: "https://idp.test/jwks" };
const onPut = (bucket: string): ResolvedTrigger =>
  ({ name: "onput", type: "storage_object_created", function: "hello", bucket, functionPath: "/", enabled: true }) as ResolvedTrigger;
const liveOnPut = (overrides: Partial<LiveTrigger>): LiveTrigger =>
  ({ id: "t1", name: "onput", type: "storage_object_created", function: "hello", bucket: "old", functionPath: "/", enabled: true, inherited: false, ...overrides });
const tick = (fn: string): LiveTrigger => ({ id: "t2", name: "tick", type: "schedule", function: fn, functionPath: "/", enabled: true, inherited: false, cron: "* * * * *" });

describe("dependency edges between changes", () => {
  it.each<{ edge: string; desired: ResolvedPolicy; live: LiveState; change: string; dependsOn: string[] }>([
    {
      edge: "a compute update waits for the branch update",
      desired: policyWith({ branch: { protected: true, compute: { maxCu: 4 } } }),
      live: liveWith(),
      change: "update:compute", dependsOn: ["update:branch"],
    },
    {
      edge: "an auth create waits for every control-plane change",
      desired: policyWith({ auth: "enabled", branch: { protected: true, compute: { maxCu: 4 } } }),
      live: liveWith({ auth: { enabled: false } }),
      change: "create:auth", dependsOn: ["update:branch", "update:compute"],
    },
    {
      edge: "a Data API create on the built-in provider waits for the auth create and the control plane",
      desired: policyWith({ auth: "enabled", dataApi: builtinDataApi, branch: { protected: true } }),
      live: liveWith({ auth: { enabled: false } }),
      change: "create:dataApi", dependsOn: ["create:auth", "update:branch"],
    },
    {
      edge: "a Data API create on an external provider waits for the control plane only",
      desired: policyWith({ auth: "enabled", dataApi: externalDataApi, branch: { compute: { maxCu: 4 } } }),
      live: liveWith({ auth: { enabled: false } }),
      change: "create:dataApi", dependsOn: ["update:compute"],
    },
    {
      edge: "a Data API delete waits for the control plane",
      desired: policyWith({ dataApi: { state: "disabled" }, branch: { protected: true } }),
      live: liveWith({ dataApi: { enabled: true, database: "neondb", settings: null } }),
      change: "delete:dataApi", dependsOn: ["update:branch"],
    },
    {
      edge: "a bucket create does not wait for the control plane",
      desired: policyWith({ buckets: [{ name: "up", access: "private" }], branch: { protected: true } }),
      live: liveWith({ buckets: [] }),
      change: "create:bucket.up", dependsOn: [],
    },
    {
      edge: "a function deployment does not wait for the control plane",
      desired: policyWith({ functions: [fnWith("hello")], branch: { protected: true } }),
      live: liveWith({ functions: [] }),
      change: "create:function.hello", dependsOn: [],
    },
    {
      edge: "a trigger create waits for its function's redeploy",
      desired: policyWith({ functions: [fnWith("other")], triggers: [{ ...onPut("up"), name: "tock", type: "schedule", function: "other", cron: "0 * * * *" } as ResolvedTrigger] }),
      live: liveWith({ functions: [liveFn("other", TAG)], triggers: [] }),
      change: "create:trigger.tock", dependsOn: ["update:function.other"],
    },
    {
      edge: "a trigger update waits for its function's change and its bucket's create",
      desired: policyWith({ functions: [fnWith("hello")], buckets: [{ name: "up", access: "private" }], triggers: [onPut("up")] }),
      live: liveWith({ functions: [], buckets: [], triggers: [liveOnPut({ bucket: "elsewhere" })] }),
      change: "update:trigger.onput", dependsOn: ["create:bucket.up", "create:function.hello"],
    },
    {
      edge: "a pruned bucket is deleted after the trigger moved off it",
      desired: policyWith({ functions: [fnWith("hello")], buckets: [{ name: "up", access: "private" }], triggers: [onPut("up")], prune: PRUNE_ALL }),
      live: liveWith({ functions: [liveFn("hello", TAG)], buckets: [{ name: "old", access: "private" }], triggers: [liveOnPut({ bucket: "old" })] }),
      change: "delete:bucket.old", dependsOn: ["update:trigger.onput"],
    },
    {
      edge: "a pruned function is deleted after its trigger and hostname moved to another function",
      desired: policyWith({
        functions: [fnWith("hello", { customDomains: ["old.example.com"] })],
        triggers: [{ name: "tick", type: "schedule", function: "hello", cron: "* * * * *", functionPath: "/", enabled: true } as ResolvedTrigger],
        prune: PRUNE_ALL,
      }),
      live: liveWith({
        functions: [liveFn("hello", TAG), liveFn("old", TAG)],
        triggers: [tick("old")],
        customDomains: [{ domain: "old.example.com", entityType: "function", entityId: "old", cnameTarget: "edge.test" }],
      }),
      change: "delete:function.old", dependsOn: ["replace:domain.old.example.com", "update:trigger.tick"],
    },
    {
      edge: "a pruned trigger is deleted without waiting",
      desired: policyWith({ functions: [fnWith("hello")], prune: PRUNE_ALL }),
      live: liveWith({ functions: [liveFn("hello", TAG)], triggers: [tick("hello")] }),
      change: "delete:trigger.tick", dependsOn: [],
    },
  ])("$edge", ({ desired, live, change, dependsOn }) => {
    const result = plan(desired, live);

    expect(result.conflicts.filter((c) => c.blocking)).toEqual([]);
    expect(result.changes.find((c) => c.change.id === change)?.change.dependsOn).toEqual(dependsOn);
  });

  it("orders every planned change after the changes it depends on", () => {
    const result = plan(
      policyWith({ auth: "enabled", dataApi: builtinDataApi, branch: { protected: true, compute: { maxCu: 4 } } }),
      liveWith({ auth: { enabled: false } }),
    );

    expect(result.changes.map((c) => c.change.id)).toEqual(["update:branch", "update:compute", "create:auth", "create:dataApi"]);
  });
});
