/**
 * Checks of a branch `createBranch` is about to make: before anything is created they run over
 * its creation alone (the `create:branch` change, no live branch); once it exists, the rest of
 * its plan is checked by the push like any other plan, and the two results are merged.
 */
import type { ApiProject } from "../api/platform-api.js";
import { CheckFailedError } from "../errors/check-errors.js";
import type { CheckResult } from "../model/check-result.js";
import type { Check } from "../model/checks.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { Change, EngineWarning } from "../model/plan.js";
import { blockingChecks, mergeCheckResults, runChecks } from "./checks-run.js";

/** What the checks of a new branch's creation read. */
export interface NewBranchCheckInput {
  project: ApiProject;
  desired: ResolvedPolicy;
  /** The new branch's name. */
  name: string;
  /** The `create:branch` change. */
  change: Change;
  warnings: readonly EngineWarning[];
}

/**
 * Runs `checks` over the creation of a new branch. A mandatory violation (or a failing check)
 * throws `CheckFailedError` before anything is created; without checks, `undefined`.
 */
export async function checkNewBranch(checks: readonly Check[] | undefined, input: NewBranchCheckInput): Promise<CheckResult[] | undefined> {
  if (checks === undefined) return undefined;
  const { project, desired, name, change } = input;
  const results = await runChecks(checks, {
    target: { projectId: project.id, projectName: project.name, branchId: null, branchName: name, isDefault: false, protected: desired.branch.protected === true, exists: false },
    policy: desired,
    live: null,
    plan: { projectId: project.id, branchId: "", branchName: name, changes: [change], conflicts: [], unmanaged: [], warnings: [...input.warnings], summary: { create: 1, update: 0, delete: 0, conflicts: 0 } },
  });
  const blocking = blockingChecks(results);
  if (blocking.length > 0) throw new CheckFailedError(blocking, name);
  return results;
}

/** The `checks` of a new branch's result: the creation's and the rest's, merged; none without checks. */
export function withFirstChecks(first: readonly CheckResult[] | undefined, rest: readonly CheckResult[] | undefined): { checks?: CheckResult[] } {
  return first === undefined ? {} : { checks: mergeCheckResults(first, rest) };
}
