import * as z from "zod";
import { describe, expect, it } from "vitest";
import { policyKindsOf } from "../../../src/config/policy-kinds.js";
import { resolvePolicyWith } from "../../../src/config/resolve-policy.js";
import { type KindPolicy, kindPolicy } from "../../../src/config/schemas/kind-policy.js";
import { readStaticPolicy } from "../../../src/config/validate-static.js";
import { KIND_LIST } from "../../../src/kinds/list.js";
import type { BranchTarget, PolicyConfig } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const main: BranchTarget = { name: "main", id: "br-main", exists: true, isDefault: true };

// A kind no source file knows states `widgets` (name → { size }), its deprecated home `preview.widgets`, the flag
// `prune.widgets` (which `prune: true` sets) and its field of the resolved policy.
const widgetPolicy = kindPolicy({
  order: 55,
  keys: { widgets: z.record(z.string(), z.strictObject({ size: z.number().int().min(1).optional() })) },
  preview: { widgets: 25 },
  prune: { flag: "widgets", order: 45 },
  resolve: ({ widgets }) => ({ widgetNames: Object.keys(widgets ?? {}).sort() }),
});
const withWidgets = policyKindsOf([...KIND_LIST, { policy: widgetPolicy }]);

/** `value` validated as a policy with the widget kind (untyped: the public type does not know it). */
const validated = (value: unknown) => readStaticPolicy(withWidgets, value).config;
const resolved = (value: unknown) => resolvePolicyWith(withWidgets, validated(value), main) as unknown as Record<string, unknown>;

describe("a kind's static policy, added to the list alone", () => {
  it("is validated with the rest of the policy, its issues under its key", () => {
    const issues = issuesOf(() => validated({ widgets: { big: { size: 0 } }, buckets: 5 }));
    expect(issueAt(issues, "widgets.big.size").message).toBe("must be at least 1");
    expect(issueAt(issues, "buckets").message).toMatch(/^must be an object of bucket name/);
  });

  it("is among the keys an unknown key's suggestion is chosen from, at the top level and under prune and preview", () => {
    expect(issueAt(issuesOf(() => validated({ widget: {} })), "").message).toBe('"widget" is not a known key here (did you mean "widgets"?)');
    expect(issueAt(issuesOf(() => validated({ prune: { widget: true } })), "prune").message).toBe('"widget" is not a known key here (did you mean "widgets"?)');
    expect(issueAt(issuesOf(() => validated({ preview: { widget: {} } })), "preview").message).toBe('"widget" is not a known key here (did you mean "widgets"?)');
  });

  it("puts its flag and its deprecated home in the expected shapes, each in its place", () => {
    expect(issueAt(issuesOf(() => validated({ prune: "all" })), "prune").message).toBe(
      "must be true, false or { functions?, triggers?, customDomains?, buckets?, widgets?, roles?, databases? } (got a string)",
    );
    expect(issueAt(issuesOf(() => validated({ preview: 1 })), "preview").message).toBe("must be { functions?, buckets?, widgets?, aiGateway? } (got a number)");
  });

  it("resolves its field from its key, or from its deprecated home, which cannot be stated beside it", () => {
    expect(resolved({ widgets: { b: {}, a: { size: 2 } } }).widgetNames).toEqual(["a", "b"]);
    expect(resolved({ preview: { widgets: { old: {} } } })).toMatchObject({ widgetNames: ["old"], deprecatedKeys: ["preview.widgets"] });
    expect(resolved({}).widgetNames).toEqual([]);
    expect(issueAt(issuesOf(() => validated({ widgets: {}, preview: { widgets: {} } })), "preview.widgets").message).toBe(
      "declared both as `widgets` and `preview.widgets`; keep the top-level key",
    );
  });

  it("has its prune flag set by prune: true and stated by prune: false, like the flags of the kinds of src/", () => {
    const flags = (prune: unknown) => {
      const { prune: on, pruneStated } = resolved({ prune }) as { prune: Record<string, boolean>; pruneStated: Record<string, boolean> };
      return { on: on.widgets, stated: pruneStated.widgets, roles: on.roles };
    };
    expect(flags(true)).toEqual({ on: true, stated: true, roles: false });
    expect(flags(false)).toEqual({ on: false, stated: true, roles: false });
    expect(flags({ widgets: true })).toEqual({ on: true, stated: true, roles: false });
    expect(flags(undefined)).toEqual({ on: false, stated: false, roles: false });
  });

  it("leaves the registry's own policy schema without it", () => {
    expect(issueAt(issuesOf(() => readStaticPolicy(policyKindsOf(KIND_LIST), { widgets: {} })), "").message).toBe('"widgets" is not a known key here');
  });

  it("takes a `__proto__` key of a policy as a key like any other: refused, naming it, and nothing else resolved from it", () => {
    const hostile = JSON.parse('{"__proto__": {"widgets": {"x": {}}}, "widgets": {"y": {}}}') as unknown;
    expect(issuesOf(() => validated(hostile)).map((issue) => issue.path)).toEqual(["__proto__"]);
  });
});

describe("the kinds' static parts", () => {
  const refused = (policy: KindPolicy) => () => policyKindsOf([...KIND_LIST, { policy }]);
  const any = z.unknown();

  it.each([
    ["__proto__", { order: 1, keys: JSON.parse('{"__proto__": 1}') as Record<string, z.ZodType> }],
    ["constructor", { order: 1, keys: { constructor: any } }],
    ["prune", { order: 1, keys: { prune: any } }],
    ["buckets", { order: 1, keys: { buckets: any } }],
    ["prune.buckets", { prune: { flag: "buckets", order: 1 } }],
    ["prune.toString", { prune: { flag: "toString", order: 1 } }],
    ["preview.gizmos", { order: 1, keys: { gadgets: any }, preview: { gizmos: 1 } }],
  ] as const)("refuse a kind stating %s (a defect of the kinds, not of a policy)", (what, policy) => {
    expect(refused(policy as KindPolicy)).toThrow(new RegExp(`inconsistent at .*${what.replace(/[.$]/g, "\\$&")}`));
  });

  it("are the registry's: its policy keys in the order a pulled svc.ts writes them", () => {
    expect(policyKindsOf(KIND_LIST).keyOrder).toEqual(["auth", "dataApi", "aiGateway", "functions", "buckets", "triggers", "roles", "databases", "prune", "hooks", "branch", "preview"]);
  });

  it("type the public policy: a kind's key is a key of PolicyConfig", () => {
    const config: PolicyConfig = { buckets: { avatars: { access: "public_read" } }, prune: { buckets: true }, preview: { aiGateway: true } };
    expect(Object.keys(validated(config))).toEqual(["buckets", "prune", "preview"]);
  });
});
