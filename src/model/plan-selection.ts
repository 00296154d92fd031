import type { Change, ConflictReport } from "./plan.js";

/**
 * A targeted plan's selection (`targets` / `exclude`): the plan's `changes` hold only the
 * selected changes; what the branch still needs beyond them is listed here.
 */
export interface PlanSelection {
  /** Address patterns given as `targets` (`*` matches any run of characters). */
  targets: string[];
  /** Address patterns given as `exclude`. */
  exclude: string[];
  /** Changes of the whole plan (selected + pending). */
  total: number;
  /** Changes outside the selection, in plan order: the branch still needs them. */
  pending: Change[];
  /** Conflicts about resources outside the selection: they do not block this apply. */
  pendingConflicts: ConflictReport[];
}
