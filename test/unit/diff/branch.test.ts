import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, liveWith, policyWith } from "../../helpers/engine-state.js";

const plan = (desired: ResolvedPolicy, live: LiveState) => diffState(desired, live, { now: NOW, functionTags: new Map(), allowDataLoss: false });

describe("branch settings", () => {
  it.each([
    ["protects an unprotected branch", { protected: true }, {}, ["protected"], { protected: true, expiresAt: null }],
    ["unprotects a protected branch", { protected: false }, { protected: true }, ["protected"], { protected: false, expiresAt: null }],
    ["sets an expiry counted from creation", { ttlSeconds: 7 * 86400 }, {}, ["expiresAt"], { protected: false, expiresAt: "2026-01-08T00:00:00Z" }],
    ["moves an expiry that drifted by more than a minute", { ttlSeconds: 7 * 86400 }, { expiresAt: "2026-01-09T00:00:00Z" }, ["expiresAt"], { protected: false, expiresAt: "2026-01-08T00:00:00Z" }],
    ["removes an expiry with ttl: false", { ttlSeconds: null }, { expiresAt: "2026-01-09T00:00:00Z" }, ["expiresAt"], { protected: false, expiresAt: null }],
  ])("%s (an override)", (_label, branch, liveBranch, fields, after) => {
    const live = liveWith();
    const result = plan(policyWith({ branch }), { ...live, branch: { ...live.branch, ...liveBranch } });
    expect(result.changes.map((c) => c.change)).toMatchObject([{ id: "update:branch", class: "override", fields, after }]);
    expect(result.conflicts).toEqual([]);
  });

  it.each([
    ["an expiry within the 60 s tolerance", { ttlSeconds: 7 * 86400 }, { expiresAt: "2026-01-08T00:00:59Z" }],
    ["ttl: false on a branch without expiry", { ttlSeconds: null }, {}],
    ["the same protected flag", { protected: true }, { protected: true }],
    ["an undeclared ttl and protection", {}, { protected: true, expiresAt: "2026-01-09T00:00:00Z" }],
  ])("plans nothing for %s", (_label, branch, liveBranch) => {
    const live = liveWith();
    const result = plan(policyWith({ branch }), { ...live, branch: { ...live.branch, ...liveBranch } });
    expect(result.changes).toEqual([]);
  });

  it("blocks a ttl that would expire the branch within the hour", () => {
    const result = plan(policyWith({ branch: { ttlSeconds: 86400 + 1800 } }), liveWith());
    expect(result.conflicts).toMatchObject([{ code: "TTL_EXPIRES_NOW", kind: "branch", field: "ttl", blocking: true }]);
    expect(result.changes).toEqual([]);
  });

  it("blocks a ttl declared for the default branch", () => {
    const live = liveWith();
    const result = plan(policyWith({ branch: { ttlSeconds: 86400 * 7 } }), { ...live, branch: { ...live.branch, isDefault: true } });
    expect(result.conflicts).toMatchObject([{ code: "TTL_DEFAULT_BRANCH", blocking: true }]);
  });
});

describe("compute", () => {
  it("updates declared fields only, after the branch update", () => {
    const result = plan(policyWith({ branch: { protected: true, compute: { maxCu: 4, suspendTimeoutSeconds: -1 } } }), liveWith());
    const compute = result.changes.find((c) => c.change.id === "update:compute");
    expect(compute?.change).toMatchObject({
      class: "override",
      fields: ["autoscalingLimitMaxCu", "suspendTimeout"],
      before: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 2, suspendTimeout: 0 },
      after: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 4, suspendTimeout: -1 },
      dependsOn: ["update:branch"],
    });
    expect(compute?.op).toEqual({ type: "compute-update", endpointId: "ep-1" });
    expect(compute?.planned).toEqual({ maxCu: 4, suspendTimeoutSeconds: -1 });
    expect(result.changes.map((c) => c.change.id)).toEqual(["update:branch", "update:compute"]);
  });

  it("compares durations in seconds, so an equal value plans clean", () => {
    const live = liveWith({ compute: { endpointId: "ep-1", minCu: 1, maxCu: 1, suspendTimeoutSeconds: 300 } });
    expect(plan(policyWith({ branch: { compute: { minCu: 1, maxCu: 1, suspendTimeoutSeconds: 300 } } }), live).changes).toEqual([]);
  });

  it.each([
    ["a branch without read-write compute", { minCu: 1 }, null, "NO_COMPUTE"],
    ["a declared minimum that breaks the pair with the live maximum", { minCu: 4 }, { endpointId: "ep-1", minCu: 0.25, maxCu: 2, suspendTimeoutSeconds: 0 }, "COMPUTE_PAIR_INVALID"],
    ["a declared maximum too far from the live minimum", { maxCu: 12 }, { endpointId: "ep-1", minCu: 1, maxCu: 2, suspendTimeoutSeconds: 0 }, "COMPUTE_PAIR_INVALID"],
  ])("blocks %s", (_label, compute, liveCompute, code) => {
    const result = plan(policyWith({ branch: { compute } }), liveWith({ compute: liveCompute }));
    expect(result.conflicts).toMatchObject([{ code, kind: "compute", blocking: true }]);
    expect(result.changes).toEqual([]);
  });
});
