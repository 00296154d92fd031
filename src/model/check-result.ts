/** What a check run found: plain, JSON-safe data carried by `PushResult.checks`. */

/** `mandatory`: a violation blocks apply. `advisory`: a violation is shown as a warning. */
export type CheckEnforcement = "advisory" | "mandatory";

/** One violation a check reported. */
export interface CheckViolation {
  /** The change or resource it is about, when there is one. */
  address?: string;
  message: string;
}

/** What one check found in one plan. */
export interface CheckResult {
  name: string;
  /**
   * The check's enforcement, or `mandatory` when the check itself failed (threw, returned a
   * rejected promise, timed out, ended the process or polluted `Object.prototype`).
   */
  enforcement: CheckEnforcement;
  violations: CheckViolation[];
  /** Why the check failed, when it did: it then counts as a mandatory violation. */
  error?: string;
}

/** Whether a check's result blocks apply: a mandatory check with a violation, or a check that failed. */
export function isBlockingCheck(result: CheckResult): boolean {
  return result.error !== undefined || (result.enforcement === "mandatory" && result.violations.length > 0);
}
