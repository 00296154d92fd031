import * as z from "zod";
import { describe, expect, it } from "vitest";
import { policyKindsOf } from "../../../src/config/policy-kinds.js";
import { resolvePolicyWith } from "../../../src/config/resolve-policy.js";
import { kindTuning } from "../../../src/config/schemas/branch-tuning.js";
import type { DesiredSlices } from "../../../src/kinds/index.js";
import { KIND_LIST, resolvePolicy } from "../../../src/kinds/list.js";
import type { BranchTarget, BranchTuning } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const feature: BranchTarget = { name: "feature-x", id: "br-x", exists: true, isDefault: false };

// A kind no source file knows adds `widgets` (a count) to the tuning; its slice is `{ widget: { count } }`.
const seen: unknown[] = [];
const widgets = kindTuning({ widgets: z.number().int().min(0).optional() }, (values, { target }) => {
  seen.push(target.name);
  // The slices' type knows only the kinds of src/; the widget's slice is one it does not know.
  const slice = { widget: { count: values.widgets } } as DesiredSlices;
  return values.widgets === undefined ? {} : { kinds: slice };
});

/** Resolves a policy whose closure returns `tuning` (untyped, to test runtime validation) with the registry's kinds and the widget kind. */
const withWidgets = policyKindsOf([...KIND_LIST, { tuning: widgets }]);
const withTuning = (tuning: unknown) => resolvePolicyWith(withWidgets, { branch: () => tuning as BranchTuning }, feature);

describe("a kind's keys of the branch tuning", () => {
  it("resolve to the kind's slice of the resolved policy, beside the tuning's own keys", () => {
    const resolved = withTuning({ widgets: 2, protected: true });
    expect(resolved.kinds).toEqual({ widget: { count: 2 } });
    expect(resolved.branch).toEqual({ protected: true });
    expect(seen.at(-1)).toBe("feature-x");
  });

  it("leave no slice when the closure does not state them", () => {
    expect(withTuning({ protected: true })).not.toHaveProperty("kinds");
  });

  it("are validated by the kind's schema, the issue under branch.<key>, with the tuning's own issues", () => {
    const issues = issuesOf(() => withTuning({ widgets: -1, ttl: "10m" }));
    expect(issueAt(issues, "branch.widgets").message).toMatch(/>=\s*0|at least 0|too small/i);
    expect(issueAt(issues, "branch.ttl").message).toMatch(/ttl|duration|1h|minimum|at least/i);
  });

  it("are refused where no kind adds them: the registry's kinds do not know `widgets` yet", () => {
    expect(issuesOf(() => resolvePolicy({ branch: () => ({ widgets: 2 }) as BranchTuning }, feature)).map((i) => i.path)).toEqual(["branch"]);
  });

  it("are among the known keys an unknown key's suggestion is chosen from", () => {
    expect(issueAt(issuesOf(() => withTuning({ widget: 2 })), "branch").message).toBe('"widget" is not a known key here (did you mean "widgets"?)');
  });

  it("take a `__proto__` key in the closure's result as a key like any other: refused, naming it", () => {
    const hostile = JSON.parse('{"__proto__": {"widgets": 1}, "widgets": 1}') as unknown;
    expect(issuesOf(() => withTuning(hostile)).map((i) => i.path)).toEqual(["branch.__proto__"]);
  });
});
