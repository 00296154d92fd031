import type { ConflictReport, PushResult } from "../model/plan.js";
import { ErrorCode } from "./codes.js";
import { PlatformError } from "./platform-error.js";

/** Why `confirm` was asked, in this order. */
export type PushAbortReason = "protected-branch" | "override-updates";

/** `details` of a {@link PushConflictError}: every conflict, and the plan when one was computed. */
export type PushConflictDetails = { conflicts: readonly ConflictReport[]; result: PushResult | undefined };

/**
 * The policy conflicts with the live branch (`PLATFORM_PUSH_CONFLICT`): blocking conflicts, or
 * override/destructive changes without `updateExisting`. Nothing was changed.
 */
export class PushConflictError extends PlatformError<PushConflictDetails> {
  /** Every conflict, blocking ones first. */
  readonly conflicts: readonly ConflictReport[];

  constructor(conflicts: readonly ConflictReport[], branchName: string, result?: PushResult) {
    const blocking = conflicts.filter((c) => c.blocking).length;
    const lines = conflicts.map((c) => `  - ${c.kind} ${c.identifier} (${c.field}): ${c.reason}`);
    const fix =
      blocking > 0
        ? "Resolve the blocking conflicts in the policy or on the platform, then apply again."
        : "Review the plan, then apply with updateExisting: true (CLI: --yes) to override existing settings.";
    super(
      ErrorCode.PUSH_CONFLICT,
      [`Cannot apply to branch "${branchName}": ${conflicts.length} conflict(s).`, ...lines, fix].join("\n"),
      { details: { conflicts, result } },
    );
    this.conflicts = conflicts;
  }
}

/** `details` of a {@link PushAbortedError}. */
export type PushAbortedDetails = { branchName: string; reasons: readonly PushAbortReason[] };

/** The `confirm` callback returned false (`PLATFORM_PUSH_ABORTED`). Nothing was changed. */
export class PushAbortedError extends PlatformError<PushAbortedDetails> {
  readonly branchName: string;
  readonly reasons: readonly PushAbortReason[];

  constructor(branchName: string, reasons: readonly PushAbortReason[]) {
    super(
      ErrorCode.PUSH_ABORTED,
      `Apply to branch "${branchName}" was not confirmed (${reasons.join(", ")}); nothing was changed.`,
      { details: { branchName, reasons } },
    );
    this.branchName = branchName;
    this.reasons = reasons;
  }
}

/** `details` of an {@link ApplyFailedError}: the complete result (applied, failed, skipped). */
export type ApplyFailedDetails = { result: PushResult };

/**
 * At least one change failed (`PLATFORM_APPLY_FAILED`). `result` says what was applied, what
 * failed (with its error) and what was skipped because a dependency failed.
 */
export class ApplyFailedError extends PlatformError<ApplyFailedDetails> {
  readonly result: PushResult;

  constructor(result: PushResult) {
    const failures = result.failed.map((f) => `  - ${f.change.id}: ${f.error.message}`);
    super(
      ErrorCode.APPLY_FAILED,
      [
        `Apply to branch "${result.branchName}" failed: ${result.failed.length} change(s) failed, ` +
          `${result.applied.length} applied, ${result.skipped.length} skipped.`,
        ...failures,
        "Fix the cause and apply again; applied changes will not be repeated.",
      ].join("\n"),
      { details: { result } },
    );
    this.result = result;
  }
}

/** Which check of a saved plan failed. */
export type StalePlanReason = "format" | "target" | "state" | "bundle" | "changes";

/** One way a saved plan differs from a fresh plan: what (`change bucket.media`) and how, never a value. */
export interface StalePlanDifference {
  item: string;
  what: string;
}

/** `details` of a {@link StalePlanError}: the failed check, what it expected and found, what differs. */
export type StalePlanDetails = {
  reason: StalePlanReason;
  expected: unknown;
  actual: unknown;
  /** Changes a fresh plan has; 0 means the plan was probably applied already. */
  currentChangeCount: number | undefined;
  differences?: readonly StalePlanDifference[];
};

/** A saved plan no longer matches the branch or the policy (`PLATFORM_STALE_PLAN`). */
export class StalePlanError extends PlatformError<StalePlanDetails> {
  readonly reason: StalePlanReason;

  constructor(options: { reason: StalePlanReason; expected: unknown; actual: unknown; currentChangeCount?: number; differences?: readonly StalePlanDifference[] }) {
    const { reason, expected, actual, currentChangeCount, differences = [] } = options;
    const already = currentChangeCount === 0 ? " The branch already matches the policy." : "";
    const listed = differences.slice(0, 20).map((d) => `\n  - ${d.item}: ${d.what}`).join("");
    const more = differences.length > 20 ? `\n  … and ${differences.length - 20} more` : "";
    super(
      ErrorCode.STALE_PLAN,
      `The saved plan is stale (${reason} check failed: expected ${String(expected)}, found ${String(actual)}).${already} ` +
        `Run plan again and apply the new plan.${differences.length === 0 ? "" : ` What differs now (${differences.length}):`}${listed}${more}`,
      { details: { reason, expected, actual, currentChangeCount, ...(differences.length === 0 ? {} : { differences: differences.map((d) => ({ item: d.item, what: d.what })) }) } },
    );
    this.reason = reason;
  }
}

/** One function that could not be bundled. */
export interface BundleFailure {
  slug: string;
  message: string;
  /** The largest files with their sizes, when a limit was exceeded. */
  largestFiles?: { path: string; bytes: number }[];
  /** Why the function's `externalPackages` could not be shipped, when that is the failure. */
  reason?: ExternalPackagesFailureReason;
}

/**
 * Why external packages could not be shipped: npm is missing, failed or timed out, a package has
 * no linux/arm64/glibc build, a staged binary is foreign, or a package is not installed in the project.
 */
export type ExternalPackagesFailureReason = "npm-missing" | "npm-failed" | "npm-timeout" | "no-runtime-build" | "foreign-binary" | "not-installed";

/** `details` of a {@link BundleError}. */
export type BundleErrorDetails = { failures: readonly BundleFailure[] };

/** Bundling failed for one or more functions (`PLATFORM_BUNDLE_FAILED`); nothing was changed. */
export class BundleError extends PlatformError<BundleErrorDetails> {
  readonly failures: readonly BundleFailure[];

  constructor(failures: readonly BundleFailure[], cause?: unknown) {
    const lines = failures.map((f) => `  - function ${f.slug}: ${f.message}`);
    super(ErrorCode.BUNDLE_FAILED, [`Bundling failed for ${failures.length} function(s):`, ...lines].join("\n"), {
      details: { failures },
      cause,
    });
    this.failures = failures;
  }
}

/** `details` of a {@link HookFailedError}: the hook, and the failing command's index and exit code. */
export type HookFailedDetails = { hook: string; command?: number; exitCode?: number };

/**
 * A lifecycle hook of the policy failed (`PLATFORM_HOOK_FAILED`): a function threw, or a command
 * exited non-zero, timed out or was stopped. The CLI runs hooks; the library never does. A failed
 * `before` hook means nothing was changed.
 */
export class HookFailedError extends PlatformError<HookFailedDetails> {
  constructor(options: { hook: string; reason: string; command?: number; exitCode?: number; cause?: unknown }) {
    const { hook, reason, command, exitCode, cause } = options;
    super(ErrorCode.HOOK_FAILED, `hook ${hook} failed: ${reason}`, {
      details: { hook, ...(command === undefined ? {} : { command }), ...(exitCode === undefined ? {} : { exitCode }) },
      cause,
    });
  }
}

/** `details` of a {@link PartialBranchCreateError}: the branch that exists, and the result so far. */
export type PartialBranchCreateDetails = { branchId: string; branchName: string; result: PushResult | undefined };

/** Creating a branch succeeded but a later step failed (`PLATFORM_PARTIAL_BRANCH_CREATE`). */
export class PartialBranchCreateError extends PlatformError<PartialBranchCreateDetails> {
  readonly branchId: string;
  readonly branchName: string;

  constructor(options: { branchId: string; branchName: string; result?: PushResult; cause: unknown }) {
    const { branchId, branchName, result, cause } = options;
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      ErrorCode.PARTIAL_BRANCH_CREATE,
      `Branch "${branchName}" (${branchId}) was created, but configuring it failed: ${why}\n` +
        "Run apply against the new branch to finish, or delete it.",
      { details: { branchId, branchName, result }, cause },
    );
    this.branchId = branchId;
    this.branchName = branchName;
  }
}

/** `details` of a {@link CancelledError}: the partial result once a mutation started. */
export type CancelledDetails = { result: PushResult | undefined };

/** The operation's `signal` was aborted (`PLATFORM_CANCELLED`). */
export class CancelledError extends PlatformError<CancelledDetails> {
  constructor(what: string, result?: PushResult) {
    const partial = result ? " Some changes were applied: see details.result." : " Nothing was changed.";
    super(ErrorCode.CANCELLED, `${what} was cancelled.${partial}`, { details: { result } });
  }
}
