/** The read replicas' policy schema and pure diff: declared replicas against the branch's read-only endpoints. */
import { describe, expect, it } from "vitest";
import type { DiffSink } from "../../../src/diff/plan-types.js";
import { issuesFromZod, policyErrorMap } from "../../../src/config/issues.js";
import { diffReadReplicas, pruneReadReplicas } from "../../../src/kinds/readReplica/diff.js";
import type { DesiredReadReplicas, LiveReadReplica } from "../../../src/kinds/readReplica/fields.js";
import { readReplicasSchema, resolveReadReplicas } from "../../../src/kinds/readReplica/policy.js";

const DEFAULTS = { minCu: 0.25, maxCu: 2, suspendTimeoutSeconds: 0 };

/** The replicas a `readReplicas` value declares (it must be valid). */
function declared(value: unknown): DesiredReadReplicas {
  return resolveReadReplicas(readReplicasSchema.parse(value));
}

/** What `readReplicas` says is wrong with `value`, as `path: message` lines. */
function problems(value: unknown): string[] {
  const parsed = readReplicasSchema.safeParse(value, { error: policyErrorMap });
  return parsed.success ? [] : issuesFromZod(parsed.error.issues, ["branch", "readReplicas"]).map((i) => `${i.path}: ${i.message}`);
}

function endpoint(endpointId: string, name: string | undefined, settings: Partial<typeof DEFAULTS> = {}): LiveReadReplica {
  return { endpointId, ...(name === undefined ? {} : { name }), ...DEFAULTS, ...settings };
}

/** The diff and prune of `want` against `live`. */
function plan(want: DesiredReadReplicas, live: LiveReadReplica[]): DiffSink {
  const sink: DiffSink = { changes: [], conflicts: [], unmanaged: [], warnings: [] };
  diffReadReplicas(want, live, DEFAULTS, sink);
  pruneReadReplicas(want, live, sink);
  return sink;
}

describe("readReplicas in the branch closure", () => {
  it("resolves a count to replica-1 … replica-n with no declared settings", () => {
    expect(declared(2)).toEqual({ replicas: [{ name: "replica-1", settings: {} }, { name: "replica-2", settings: {} }], removed: [], count: 2 });
  });

  it("resolves names to their settings in model vocabulary, and false to a removal", () => {
    expect(declared({ reports: { suspendTimeout: "10m" }, legacy: false, analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 } })).toEqual({
      replicas: [{ name: "analytics", settings: { minCu: 1, maxCu: 4 } }, { name: "reports", settings: { suspendTimeoutSeconds: 600 } }],
      removed: ["legacy"],
    });
  });

  it.each<[string, unknown, string]>([
    ["a fractional count", 1.5, "branch.readReplicas: must be a whole number of replicas from 0 to 100 (got 1.5)"],
    ["a count above the limit", 101, "branch.readReplicas: must be a whole number of replicas from 0 to 100 (got 101)"],
    ["text", "two", "branch.readReplicas: must be a count of replicas (0 to 100) or an object of replica name → settings"],
    ["an uppercase name", { Analytics: {} }, 'branch.readReplicas.Analytics: read replica name "Analytics" is invalid: it must be lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen'],
    ["a name with a control character", { "a\u0007b": {} }, 'branch.readReplicas["a\\u0007b"]: read replica name "a\\u0007b" is invalid: it must be lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen'],
    ["a Cyrillic look-alike name", { "аnalytics": {} }, 'branch.readReplicas["аnalytics"]: read replica name "аnalytics" is invalid: it must be lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen'],
    ["a name shaped like an endpoint id", { "ep-cool-dew-1": {} }, 'branch.readReplicas.ep-cool-dew-1: read replica name "ep-cool-dew-1" is invalid: it must not start with "ep-", which endpoint ids use'],
    ["true for a replica", { analytics: true }, "branch.readReplicas.analytics: must be the replica's settings ({} for the project's defaults), or false to remove it"],
    ["a size the platform does not offer", { analytics: { autoscalingLimitMaxCu: 3.5 } }, "branch.readReplicas.analytics.autoscalingLimitMaxCu: 3.5 CU is not an offered compute size; allowed: 0.25, 0.5, 1–16, even numbers 18–56"],
    ["a range the pair rule refuses", { analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 12 } }, "branch.readReplicas.analytics.autoscalingLimitMaxCu: the autoscaling range 1–12 CU spans more than 8 CU; raise autoscalingLimitMinCu or lower autoscalingLimitMaxCu"],
    ["a suspend timeout under a minute", { analytics: { suspendTimeout: 5 } }, "branch.readReplicas.analytics.suspendTimeout: must be at least 1 minute (got 5)"],
    ["an unknown setting", { analytics: { size: 2 } }, 'branch.readReplicas.analytics: "size" is not a known key here'],
  ])("refuses %s, naming the path", (_label, value, message) => {
    expect(problems(value)).toEqual([message]);
  });
});

describe("the read replicas' diff", () => {
  it("creates two declared replicas, resizes one, removes one declared away (an override) and reports the rest unmanaged", () => {
    const want = declared({ analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 }, reports: {}, search: { suspendTimeout: false }, legacy: false });
    const live = [endpoint("ep-a", "search"), endpoint("ep-b", "legacy", { maxCu: 4 }), endpoint("ep-c", "manual"), endpoint("ep-d", undefined)];
    const result = plan(want, live);
    expect(result.changes.map((c) => ({ ...c.change, op: c.op, planned: c.planned }))).toMatchObject([
      { id: "create:readReplica.analytics", class: "additive", before: null, after: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 }, op: { type: "read-replica-create", name: "analytics" }, planned: { minCu: 1, maxCu: 4 } },
      { id: "create:readReplica.reports", class: "additive", after: {}, planned: {} },
      { id: "update:readReplica.search", class: "override", fields: ["suspendTimeout"], before: { suspendTimeout: 0 }, after: { suspendTimeout: -1 }, op: { type: "read-replica-update", name: "search", endpointId: "ep-a" }, planned: { suspendTimeoutSeconds: -1 } },
      { id: "delete:readReplica.legacy", class: "override", before: { autoscalingLimitMaxCu: 4 }, after: null, op: { type: "read-replica-delete", name: "legacy", endpointId: "ep-b" } },
    ]);
    // A new replica plans only its declared settings; the others are the project's defaults.
    expect(result.changes.map((c) => c.change.after)).toEqual([{ autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 }, {}, { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 2, suspendTimeout: -1 }, null]);
    expect(result.unmanaged.map((u) => [u.address, u.identifier])).toEqual([["readReplica.manual", "manual"], ["readReplica.ep-d", "ep-d"]]);
    expect(result.conflicts).toEqual([]);
  });

  it("plans nothing once the branch has what the policy declares", () => {
    const want = declared({ analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4, suspendTimeout: "5m" } });
    expect(plan(want, [endpoint("ep-a", "analytics", { minCu: 1, maxCu: 4, suspendTimeoutSeconds: 300 })]).changes).toEqual([]);
  });

  it("lowering a count deletes the counted replicas above it and keeps every other name", () => {
    const live = ["replica-1", "replica-2", "replica-3", "replica-02", "analytics"].map((name, i) => endpoint(`ep-${i}`, name));
    const result = plan(declared(1), live);
    expect(result.changes.map((c) => c.change.id)).toEqual(["delete:readReplica.replica-2", "delete:readReplica.replica-3"]);
    expect(result.unmanaged.map((u) => u.address)).toEqual(["readReplica.replica-02", "readReplica.analytics"]);
  });

  it("reports a live name a policy cannot declare at the endpoint's id, never deleting it", () => {
    const result = plan(declared(0), [endpoint("ep-x", "Replica-2"), endpoint("ep-y", "replica-1\u202e")]);
    expect([result.changes, result.unmanaged.map((u) => u.address)]).toEqual([[], ["readReplica.ep-x", "readReplica.ep-y"]]);
  });

  it("blocks a declared or declared-away name that two read-only endpoints carry", () => {
    const twice = [endpoint("ep-1", "analytics"), endpoint("ep-2", "analytics"), endpoint("ep-3", "old"), endpoint("ep-4", "old")];
    const result = plan(declared({ analytics: { autoscalingLimitMaxCu: 4 }, old: false }), twice);
    expect(result.changes).toEqual([]);
    expect(result.conflicts.map((c) => [c.code, c.identifier, c.current, c.blocking])).toEqual([
      ["READ_REPLICA_NAME_AMBIGUOUS", "analytics", ["ep-1", "ep-2"], true],
      ["READ_REPLICA_NAME_AMBIGUOUS", "old", ["ep-3", "ep-4"], true],
    ]);
  });

  it("checks one declared bound with the live other bound, or the project's default for a new replica, by compute's pair rule", () => {
    const result = plan(declared({ analytics: { autoscalingLimitMaxCu: 16 }, fresh: { autoscalingLimitMaxCu: 12 } }), [endpoint("ep-1", "analytics", { minCu: 2, maxCu: 2 })]);
    expect(result.changes).toEqual([]);
    expect(result.conflicts.map((c) => [c.code, c.identifier, c.field, c.desired])).toEqual([
      ["COMPUTE_PAIR_INVALID", "analytics", "autoscalingLimitMaxCu", { autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 16 }],
      ["COMPUTE_PAIR_INVALID", "fresh", "autoscalingLimitMaxCu", { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 12 }],
    ]);
  });
});
