import type { Change, ConflictReport } from "../model/plan.js";
import type { PushAbortReason } from "../errors/engine-errors.js";

/** What `confirm` is called with (the documented fields plus the changes needing confirmation). */
export interface PushConfirmContext {
  branchName: string;
  /** The branch is protected and `allowProtectedBranch` is not set. */
  protectedBranch: boolean;
  /** The plan overrides existing settings and `updateExisting` is not set; additive changes never set it. */
  overrideUpdates: boolean;
  /** The override and destructive changes of the plan (those that need confirmation). */
  changes: Change[];
}

/** Inputs of the gate. */
export interface GateInput {
  branchName: string;
  branchIdentifier?: string;
  liveProtected: boolean;
  changes: readonly Change[];
  /** Blocking conflicts of the diff. */
  conflicts: readonly ConflictReport[];
  dryRun: boolean;
  updateExisting: boolean;
  allowProtectedBranch: boolean;
  hasConfirm: boolean;
}

/** What the gate decided. */
export type GateDecision =
  /** Dry run: nothing gated; these are the conflicts to report. */
  | { action: "report"; conflicts: ConflictReport[] }
  /** Throw `PushConflictError` with these conflicts; nothing is changed. */
  | { action: "refuse"; conflicts: ConflictReport[] }
  /** Call `confirm` once with `context`; `false` aborts with `reasons`. */
  | { action: "confirm"; context: PushConfirmContext; reasons: PushAbortReason[] }
  /** Execute the plan. */
  | { action: "proceed" };

/**
 * The identifier a change reports: the part of its address after the kind (`bucket.a.b` → `a.b`),
 * or the branch's name for a kind addressed by its name alone (`compute`: one per branch).
 */
export function identifierOf(change: Change, branchName: string): string {
  const dot = change.address.indexOf(".");
  return dot === -1 ? branchName : change.address.slice(dot + 1);
}

/** One non-blocking `OVERRIDE_NOT_CONFIRMED` conflict per held change. */
export function overrideConflicts(changes: readonly Change[], branchName: string): ConflictReport[] {
  return changes
    .filter((c) => c.class !== "additive")
    .map((c) => ({
      kind: c.kind,
      identifier: identifierOf(c, branchName),
      field: c.fields[0] ?? "*",
      current: c.before,
      desired: c.after,
      reason: `${c.reason}; this ${c.class} change needs updateExisting (CLI: --yes) or confirmation`,
      blocking: false,
      code: "OVERRIDE_NOT_CONFIRMED",
      changeId: c.id,
    }));
}

/**
 * The gate of apply and pushConfig as a pure decision. Blocking conflicts always refuse before
 * `confirm` is considered; without `confirm`, a protected branch blocks nothing
 * and unconfirmed overrides refuse.
 */
export function gatePlan(input: GateInput): GateDecision {
  const held = input.updateExisting ? [] : overrideConflicts(input.changes, input.branchName);
  if (input.dryRun) return { action: "report", conflicts: [...input.conflicts, ...held] };
  if (input.conflicts.length > 0) return { action: "refuse", conflicts: [...input.conflicts] };
  if (input.changes.length === 0) return { action: "proceed" };
  const overrideUpdates = held.length > 0;
  const protectedBranch = input.liveProtected && !input.allowProtectedBranch;
  if (input.hasConfirm) {
    if (!overrideUpdates && !protectedBranch) return { action: "proceed" };
    const reasons: PushAbortReason[] = [];
    if (protectedBranch) reasons.push("protected-branch");
    if (overrideUpdates) reasons.push("override-updates");
    return {
      action: "confirm",
      reasons,
      context: {
        branchName: input.branchName,
        protectedBranch,
        overrideUpdates,
        changes: input.changes.filter((c) => c.class !== "additive"),
      },
    };
  }
  if (overrideUpdates) return { action: "refuse", conflicts: held };
  return { action: "proceed" };
}
