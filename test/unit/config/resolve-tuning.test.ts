import { describe, expect, it } from "vitest";
import { ConfigValidationError, resolvePolicy, type BranchTarget, type BranchTuning, type PolicyConfig } from "../../../src/v1.js";
import { issueAt, issuesOf, validationErrorOf } from "./validation-helpers.js";

const main: BranchTarget = { name: "main", id: "br-main", exists: true, isDefault: true };
const feature: BranchTarget = { name: "feature-x", id: "br-x", exists: true, isDefault: false };
const functions = {
  web: { name: "Web", source: "/src/web", customDomains: ["www.example.com", "example.com"] },
  api: { name: "API", source: "/src/api", customDomains: ["api.example.com"] },
};

/** Resolves a policy whose closure returns `tuning` (untyped, to test runtime validation). */
const withTuning = (tuning: unknown, target: BranchTarget = feature, extra: PolicyConfig = {}) =>
  resolvePolicy({ functions, ...extra, branch: () => tuning as BranchTuning }, target);

describe("the branch closure", () => {
  it("is called exactly once, with the frozen target", () => {
    const seen: BranchTarget[] = [];
    const resolved = resolvePolicy({ functions, branch: (t) => (seen.push(t), { protected: true }) }, feature);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(feature);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(resolved.branch).toEqual({ protected: true });
  });

  it("is called exactly once even when its result is invalid", () => {
    let calls = 0;
    expect(() => resolvePolicy({ branch: () => ((calls += 1), { ttl: "10m" }) }, feature)).toThrow(ConfigValidationError);
    expect(calls).toBe(1);
  });

  it.each([null, undefined, {}])("treats a %j result as no tuning", (result) => {
    expect(withTuning(result).branch).toEqual({});
  });

  it("defaults to no tuning when the policy has no closure", () => {
    expect(resolvePolicy({ functions }, feature).branch).toEqual({});
  });

  it("wraps a throwing closure with the branch name and keeps the cause", () => {
    const cause = new Error("DATABASE_URL is not set");
    const err = validationErrorOf(() =>
      resolvePolicy({
        branch: () => {
          throw cause;
        },
      }, feature),
    );
    expect(err.issues).toEqual([{ path: "branch", message: 'the branch function failed for branch "feature-x": DATABASE_URL is not set' }]);
    expect(err.cause).toBe(cause);
    expect(err.message.split("\n")[0]).toBe('Invalid policy (branch "feature-x"):');
    expect(err.details).toMatchObject({ branchName: "feature-x" });
  });

  it("wraps a thrown non-error value", () => {
    const err = validationErrorOf(() =>
      resolvePolicy({
        branch: () => {
          throw "nope";
        },
      }, feature),
    );
    expect(err.issues[0]?.message).toBe('the branch function failed for branch "feature-x": nope');
  });

  it("rejects a closure that returns a promise", async () => {
    const rejected = Promise.reject(new Error("later"));
    const err = validationErrorOf(() => resolvePolicy({ branch: (() => rejected) as unknown as PolicyConfig["branch"] }, feature));
    expect(err.issues).toEqual([
      {
        path: "branch",
        message:
          'the branch function returned a promise for branch "feature-x"; it must be synchronous: compute asynchronous values before defineConfig and read them in the closure',
      },
    ]);
    await expect(rejected).rejects.toThrow("later");
  });

  it.each([["a string", "protected"], ["an array", []], ["a number", 3]])("rejects %s as the result", (_label, result) => {
    expect(issueAt(issuesOf(() => withTuning(result)), "branch").message).toMatch(/^must be an object \(the branch tuning\), null or undefined/);
  });
});

describe("BranchTuning validation", () => {
  it.each<[string, unknown, string, string]>([
    ["a ttl above 30 days", { ttl: "45d" }, "branch.ttl", 'must be at most 30 days (got "45d")'],
    ["a ttl under an hour", { ttl: "30m" }, "branch.ttl", 'must be at least 1 hour (got "30m")'],
    ["a ttl in seconds under an hour", { ttl: 3599 }, "branch.ttl", "must be at least 1 hour (got 3599)"],
    ["a ttl without unit", { ttl: "7" }, "branch.ttl", '"7" has no unit: write "7d", "7h", …, or the number 7 for seconds'],
    ["ttl true", { ttl: true }, "branch.ttl", 'must be a duration such as "7d", or false for no expiry (got true)'],
    ["a parent with a control character", { parent: "ma\nin" }, "branch.parent", "must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it contains a control character (\\u000a))"],
    ["a parent with a bidi override", { parent: "ma\u202ein" }, "branch.parent", "must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it contains a bidirectional-override character (\\u202e))"],
    ["an empty parent", { parent: "" }, "branch.parent", "must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it must be 1 to 256 characters long)"],
    ["a 257-character parent", { parent: "p".repeat(257) }, "branch.parent", "must be a branch name of 1 to 256 characters without control, zero-width or bidi characters (it must be 1 to 256 characters long)"],
    ["a string protected", { protected: "yes" }, "branch.protected", "must be true or false (got a string)"],
    ["an unknown key", { expires: "7d" }, "branch", '"expires" is not a known key here'],
    ["a misspelt key", { protectd: true }, "branch", '"protectd" is not a known key here (did you mean "protected"?)'],
    ["a key two edits away", { protect: true }, "branch", '"protect" is not a known key here'],
    ["per-branch env", { functions: { api: { env: { A: "1" } } } }, "branch.functions.api", '"env" is not a known key here'],
    ["another runtime", { functions: { api: { runtime: "nodejs20" } } }, "branch.functions.api.runtime", 'must be "nodejs24" (got "nodejs20")'],
    ["a bad tuned hostname", { functions: { api: { customDomains: ["ok.example.com", "nope"] } } }, "branch.functions.api.customDomains[1]", '"nope" needs at least two labels, e.g. "app.example.com"'],
    ["an unoffered compute size", { postgres: { computeSettings: { autoscalingLimitMinCu: 3.5 } } }, "branch.postgres.computeSettings.autoscalingLimitMinCu", "3.5 CU is not an offered compute size; allowed: 0.25, 0.5, 1–16, even numbers 18–56"],
    ["an odd size above 16", { postgres: { computeSettings: { autoscalingLimitMaxCu: 17 } } }, "branch.postgres.computeSettings.autoscalingLimitMaxCu", "17 CU is not an offered compute size; allowed: 0.25, 0.5, 1–16, even numbers 18–56"],
    ["min above max", { postgres: { computeSettings: { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 2 } } }, "branch.postgres.computeSettings.autoscalingLimitMaxCu", "must be at least autoscalingLimitMinCu (4 CU); got 2 CU"],
    ["autoscaling above 16 CU", { postgres: { computeSettings: { autoscalingLimitMinCu: 16, autoscalingLimitMaxCu: 18 } } }, "branch.postgres.computeSettings.autoscalingLimitMaxCu", "autoscaling (min ≠ max) is offered up to 16 CU; got 16–18 CU. Set both bounds to the same size for a fixed size above 16 CU"],
    ["an autoscaling range over 8 CU", { postgres: { computeSettings: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 10 } } }, "branch.postgres.computeSettings.autoscalingLimitMaxCu", "the autoscaling range 1–10 CU spans more than 8 CU; raise autoscalingLimitMinCu or lower autoscalingLimitMaxCu"],
    ["suspendTimeout -1", { postgres: { computeSettings: { suspendTimeout: -1 } } }, "branch.postgres.computeSettings.suspendTimeout", "-1 is not accepted here; use false to never suspend"],
    ["suspendTimeout under a minute", { postgres: { computeSettings: { suspendTimeout: 59 } } }, "branch.postgres.computeSettings.suspendTimeout", "must be at least 1 minute (got 59)"],
    ["suspendTimeout over 7 days", { postgres: { computeSettings: { suspendTimeout: "8d" } } }, "branch.postgres.computeSettings.suspendTimeout", 'must be at most 7 days (got "8d")'],
    ["suspendTimeout true", { postgres: { computeSettings: { suspendTimeout: true } } }, "branch.postgres.computeSettings.suspendTimeout", 'must be a number of seconds or a string like "7d" (got boolean)'],
    ["an unknown compute key", { postgres: { computeSettings: { minCu: 1 } } }, "branch.postgres.computeSettings", '"minCu" is not a known key here'],
  ])("rejects %s", (_label, tuning, path, message) => {
    expect(issueAt(issuesOf(() => withTuning(tuning)), path).message).toBe(message);
  });

  it.each<[unknown, Record<string, unknown>]>([
    [{ ttl: "1h" }, { ttlSeconds: 3600 }],
    [{ ttl: "30d" }, { ttlSeconds: 2_592_000 }],
    [{ ttl: "1w" }, { ttlSeconds: 604_800 }],
    [{ ttl: 604_800 }, { ttlSeconds: 604_800 }],
    [{ ttl: false }, { ttlSeconds: null }],
    [{ parent: "release/2024 (rc)" }, { parent: "release/2024 (rc)" }],
    [{ protected: false }, { protected: false }],
    [{ postgres: { computeSettings: { suspendTimeout: 0 } } }, { compute: { suspendTimeoutSeconds: 0 } }],
    [{ postgres: { computeSettings: { suspendTimeout: false } } }, { compute: { suspendTimeoutSeconds: -1 } }],
    [{ postgres: { computeSettings: { suspendTimeout: "7d" } } }, { compute: { suspendTimeoutSeconds: 604_800 } }],
    [{ postgres: { computeSettings: { suspendTimeout: 60 } } }, { compute: { suspendTimeoutSeconds: 60 } }],
    [{ postgres: { computeSettings: { autoscalingLimitMinCu: 56, autoscalingLimitMaxCu: 56 } } }, { compute: { minCu: 56, maxCu: 56 } }],
    [{ postgres: { computeSettings: { autoscalingLimitMinCu: 8, autoscalingLimitMaxCu: 16 } } }, { compute: { minCu: 8, maxCu: 16 } }],
    [{ postgres: { computeSettings: { autoscalingLimitMaxCu: 24 } } }, { compute: { maxCu: 24 } }],
    [{ postgres: {} }, {}],
    [{ postgres: { computeSettings: {} } }, {}],
  ])("resolves %j", (tuning, branch) => {
    expect(withTuning(tuning).branch).toEqual(branch);
  });

  it("reports every tuning issue at once", () => {
    const issues = issuesOf(() => withTuning({ ttl: "45d", protected: 1, functions: { ghost: {} } }));
    expect(issues.map((i) => i.path)).toEqual(["branch.protected", "branch.ttl", "branch.functions.ghost"]);
  });
});

describe("tuning of functions", () => {
  it("rejects tuning for an undeclared slug", () => {
    expect(issueAt(issuesOf(() => withTuning({ functions: { worker: { runtime: "nodejs24" } } })), "branch.functions.worker").message).toBe(
      "tuning for undeclared function `worker`; declare it under `functions`",
    );
  });

  it("rejects tuning for an undeclared slug under the deprecated home", () => {
    expect(issueAt(issuesOf(() => withTuning({ preview: { functions: { worker: {} } } })), "branch.preview.functions.worker").message).toBe(
      "tuning for undeclared function `worker`; declare it under `functions`",
    );
  });

  it("rejects both homes of the function tuning", () => {
    const issues = issuesOf(() => withTuning({ functions: {}, preview: { functions: {} } }));
    expect(issueAt(issues, "branch.preview.functions").message).toBe("declared both as `functions` and `preview.functions`; keep the top-level key");
  });

  it("applies the tuned runtime", () => {
    expect(withTuning({ functions: { api: { runtime: "nodejs24" } } }).functions.map((f) => f.runtime)).toEqual(["nodejs24", "nodejs24"]);
  });

  it("refuses a `__proto__` slug in the overrides, naming it, before any override is read", () => {
    const hostile = JSON.parse('{"functions": {"__proto__": {"customDomains": ["x.example.com"]}}}') as unknown;
    expect(issueAt(issuesOf(() => withTuning(hostile)), "branch.functions.__proto__").message).toMatch(/^"__proto__" is a reserved name/);
  });

  it("gives a function named like an Object member (`constructor`) the static values unless the tuning overrides it", () => {
    const declared = { functions: { constructor: { name: "C", source: "/src/c", customDomains: ["c.example.com"] } } };
    const resolved = (tuning: unknown) => resolvePolicy({ ...declared, branch: () => tuning as BranchTuning }, main).functions;
    expect(resolved({}).map((f) => [f.slug, f.customDomains])).toEqual([["constructor", ["c.example.com"]]]);
    expect(resolved({ functions: { constructor: { customDomains: [] } } }).map((f) => [f.slug, f.customDomains])).toEqual([["constructor", []]]);
  });
});

describe("custom domains per branch", () => {
  const domains = (target: BranchTarget, tuning: unknown = {}) =>
    withTuning(tuning, target).functions.map((f) => [f.slug, f.customDomains] as const);

  it("uses the static lists on the default branch, normalised and sorted", () => {
    expect(domains(main)).toEqual([
      ["api", ["api.example.com"]],
      ["web", ["example.com", "www.example.com"]],
    ]);
  });

  it.each<[string, BranchTarget]>([
    ["a non-default branch", feature],
    ["a branch whose default flag is unknown", { name: "x", exists: true }],
    ["a branch being created", { name: "new", exists: false, isDefault: false }],
  ])("drops the static lists on %s", (_label, target) => {
    expect(domains(target)).toEqual([
      ["api", []],
      ["web", []],
    ]);
  });

  it("replaces the static list with the tuned one, on any branch", () => {
    expect(domains(feature, { functions: { api: { customDomains: ["X.preview.example.com."] } } })).toEqual([
      ["api", ["x.preview.example.com"]],
      ["web", []],
    ]);
  });

  it("lets the tuning clear the static list on the default branch", () => {
    expect(domains(main, { functions: { web: { customDomains: [] } } })).toEqual([
      ["api", ["api.example.com"]],
      ["web", []],
    ]);
  });

  it("rejects a hostname used by two functions on the same branch, on the second function's path", () => {
    const err = validationErrorOf(() => withTuning({ functions: { web: { customDomains: ["shared.example.com"] } } }, main, {
      functions: { ...functions, api: { ...functions.api, customDomains: ["a.example.com", "Shared.Example.com"] } },
    }));
    expect(err.issues).toEqual([
      {
        path: "branch.functions.web.customDomains[0]",
        message: "hostname shared.example.com is declared by two functions on this branch: api and web",
      },
    ]);
    expect(err.message.split("\n")[0]).toBe('Invalid policy (branch "main"):');
  });

  it("reports a shared hostname on the deprecated tuning home when that home is used", () => {
    const issues = issuesOf(() =>
      withTuning({ preview: { functions: { web: { customDomains: ["api.example.com"] } } } }, main),
    );
    expect(issueAt(issues, "branch.preview.functions.web.customDomains[0]").message).toBe(
      "hostname api.example.com is declared by two functions on this branch: api and web",
    );
  });

  it("rejects two static lists sharing a hostname on the default branch only", () => {
    const policy: PolicyConfig = {
      functions: {
        a: { name: "A", source: "/a", customDomains: ["same.example.com"] },
        b: { name: "B", source: "/b", customDomains: ["SAME.example.com"] },
      },
    };
    expect(issueAt(issuesOf(() => resolvePolicy(policy, main)), "functions.b.customDomains[0]").message).toBe(
      "hostname same.example.com is declared by two functions on this branch: a and b",
    );
    expect(resolvePolicy(policy, feature).functions.map((f) => f.customDomains)).toEqual([[], []]);
  });
});
