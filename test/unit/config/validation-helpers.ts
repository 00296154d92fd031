/** Helpers for the policy validation tests: run a call and read the issues it reports. */
import { expect } from "vitest";
import { ConfigValidationError, type ConfigIssue } from "../../../src/v1.js";

/** Runs `fn`, expects a `ConfigValidationError` and returns it. */
export function validationErrorOf(fn: () => unknown): ConfigValidationError {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, "expected a ConfigValidationError").toBeInstanceOf(ConfigValidationError);
  return thrown as ConfigValidationError;
}

/** The issues `fn` is rejected with. */
export function issuesOf(fn: () => unknown): readonly ConfigIssue[] {
  return validationErrorOf(fn).issues;
}

/** The issue on `path` (expects exactly one there). */
export function issueAt(issues: readonly ConfigIssue[], path: string): ConfigIssue {
  const found = issues.filter((issue) => issue.path === path);
  expect(found.map((i) => i.path), `issues: ${JSON.stringify(issues)}`).toEqual([path]);
  return found[0] as ConfigIssue;
}
