import type { PushResult } from "../../model/plan.js";

/** "targeted: 3 of 11 changes; 8 remain pending", when `--target` / `--exclude` narrowed the plan. */
export function selectionLine(result: PushResult): string | undefined {
  const s = result.selection;
  if (s === undefined) return undefined;
  const held = s.pendingConflicts.length === 0 ? "" : `; ${s.pendingConflicts.length} conflict(s) outside the selection`;
  return `targeted: ${result.changes.length} of ${s.total} changes; ${s.pending.length} remain pending${held}`;
}

/** Whether the branch needs anything outside the selection (`--detailed-exitcode` counts it). */
export function hasPendingOutside(result: PushResult): boolean {
  return (result.selection?.pending.length ?? 0) > 0;
}

/** Whether a blocking conflict exists anywhere on the branch, inside the selection or not. */
export function hasBlockingAnywhere(result: PushResult): boolean {
  return [...result.conflicts, ...(result.selection?.pendingConflicts ?? [])].some((c) => c.blocking);
}

/** The one-line notes every view adds under the summary line. */
export function planNotes(result: PushResult): string[] {
  return [selectionLine(result)].filter((line): line is string => line !== undefined);
}

/** The `selection` part of the JSON document. */
export function selectionDocument(result: PushResult): { targets: string[]; exclude: string[]; total: number; selected: number; pending: string[]; pendingConflicts: number } | undefined {
  const s = result.selection;
  if (s === undefined) return undefined;
  return { targets: [...s.targets], exclude: [...s.exclude], total: s.total, selected: result.changes.length, pending: s.pending.map((c) => c.id), pendingConflicts: s.pendingConflicts.length };
}
