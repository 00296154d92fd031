import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigValidationError, resolvePolicy, validatePolicy, type BranchTarget, type PolicyConfig } from "../../../src/v1.js";
import { nearValidPolicy, validPolicy } from "./policy-arbitraries.js";

const targets: BranchTarget[] = [
  { name: "main", exists: true, isDefault: true },
  { name: "feature", exists: true, isDefault: false },
];

/** Passes, or fails with a ConfigValidationError carrying at least one path; anything else is a bug. */
function expectAcceptedOrExplained(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (err) {
    if (!(err instanceof ConfigValidationError)) throw err;
    expect(err.issues.length).toBeGreaterThan(0);
    for (const issue of err.issues) {
      expect(typeof issue.path).toBe("string");
      expect(issue.message.length).toBeGreaterThan(0);
    }
    return false;
  }
}

describe("policy validation properties", () => {
  it("accepts or explains every generated policy, valid, near-valid or arbitrary (2,400 cases)", () => {
    const input = fc.oneof(
      { weight: 2, arbitrary: validPolicy as fc.Arbitrary<unknown> },
      { weight: 5, arbitrary: nearValidPolicy },
      { weight: 1, arbitrary: fc.anything() },
    );
    fc.assert(
      fc.property(input, fc.constantFrom(...targets), (policy, target) => {
        const accepted = expectAcceptedOrExplained(() => validatePolicy(policy));
        if (accepted) expectAcceptedOrExplained(() => resolvePolicy(policy as PolicyConfig, target, { baseDir: "/repo" }));
      }),
      { numRuns: 2400, seed: 20_261_122 },
    );
  });

  it("accepts and resolves every valid generated policy on both branches (500 cases)", () => {
    fc.assert(
      fc.property(validPolicy, (policy) => {
        const config = validatePolicy(policy);
        for (const target of targets) {
          const resolved = resolvePolicy(config, target, { baseDir: "/repo" });
          expect(resolved.functions.map((f) => f.slug)).toEqual(Object.keys(policy.functions ?? {}).sort());
          expect(resolved.functions.every((f) => f.sourcePath.startsWith("/"))).toBe(true);
        }
      }),
      { numRuns: 500, seed: 1_122 },
    );
  });

  it("validates the same policy the same way every time", () => {
    fc.assert(
      fc.property(nearValidPolicy, (policy) => {
        const first = outcome(() => validatePolicy(policy));
        expect(outcome(() => validatePolicy(policy))).toEqual(first);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

function outcome(run: () => unknown): unknown {
  try {
    run();
    return "accepted";
  } catch (err) {
    return err instanceof ConfigValidationError ? err.issues : String(err);
  }
}
