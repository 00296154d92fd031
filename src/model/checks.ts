/**
 * Policy checks: rules written in TypeScript that a plan must satisfy before anyone applies it.
 * A check reads the plan, the resolved policy and the live branch as frozen copies and reports
 * violations; it never changes what is applied. Plain types only: `engine/checks-*.ts` defines,
 * loads and runs them.
 */
import type { ResolvedPolicy } from "./desired-state.js";
import type { LiveState } from "./live-state.js";
import type { CheckEnforcement } from "./check-result.js";
import type { Change, PushResult } from "./plan.js";

/** `T` with every property and element read-only, at any depth (checks get frozen copies). */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, DeepReadonly<V>>
    : T extends readonly (infer U)[]
      ? readonly DeepReadonly<U>[]
      : T extends object
        ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
        : T;

/** The branch a plan is for, as a check sees it. */
export interface CheckTarget {
  projectId: string;
  projectName: string;
  /** The branch id; `null` before `createBranch` has created the branch. */
  branchId: string | null;
  branchName: string;
  /** The project's default branch. */
  isDefault: boolean;
  protected: boolean;
  /** `false` when the policy was evaluated for a branch about to be created. */
  exists: boolean;
}

/** The plan a check reads: the public plan records of one branch. */
export type CheckPlan = DeepReadonly<Pick<PushResult, "projectId" | "branchId" | "branchName" | "changes" | "conflicts" | "unmanaged" | "warnings" | "summary">>;

/** Where a violation points: a change or resource address such as `bucket.avatars`. */
export interface ReportOptions {
  /** Default: the change being validated (`validateChange`), else none. */
  address?: string;
}

/**
 * What a check is given besides the change or plan: frozen, null-prototype copies, so a check
 * that assigns to them throws (and fails), and nothing it does reaches the plan that runs.
 */
export interface CheckContext {
  readonly target: Readonly<CheckTarget>;
  /** The resolved policy for this branch (`resolvePolicy`'s result). */
  readonly policy: DeepReadonly<ResolvedPolicy>;
  /** The live branch as the plan read it; `null` for a branch not created yet. */
  readonly live: DeepReadonly<LiveState> | null;
  /** The whole plan (also passed to `validatePlan`). */
  readonly plan: CheckPlan;
  /** Records one violation. Messages are cut at 2,000 characters; at most 100 are kept per check. */
  report(message: string, options?: ReportOptions): void;
}

/** What `defineCheck` takes. At least one of `validateChange` and `validatePlan` is required. */
export interface CheckDefinition {
  /** Unique among the checks of a run; 1–100 visible characters. */
  name: string;
  /** One sentence for people; shown nowhere but in documentation and `--json`. */
  description?: string;
  enforcement: CheckEnforcement;
  /** Called once per change, in plan order. May be async; it must settle within the time limit. */
  validateChange?: (change: DeepReadonly<Change>, ctx: CheckContext) => void | Promise<void>;
  /** Called once per plan, after `validateChange` ran for every change. */
  validatePlan?: (plan: CheckPlan, ctx: CheckContext) => void | Promise<void>;
}

/** A check as `defineCheck` returns it: a frozen copy of its definition. */
export type Check = Readonly<CheckDefinition>;
