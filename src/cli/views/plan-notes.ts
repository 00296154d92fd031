import type { PushResult } from "../../model/plan.js";
import { checksLine } from "./checks-view.js";

/** "targeted: 3 of 11 changes; 8 remain pending", when `--target` / `--exclude` narrowed the plan. */
export function selectionLine(result: PushResult): string | undefined {
  const s = result.selection;
  if (s === undefined) return undefined;
  const held = s.pendingConflicts.length === 0 ? "" : `; ${s.pendingConflicts.length} conflict(s) outside the selection`;
  return `targeted: ${result.changes.length} of ${s.total} changes; ${s.pending.length} remain pending${held}`;
}

/** The first line of a message, cut at 100 characters. */
function short(message: string): string {
  const line = message.split("\n")[0] ?? "";
  return line.length <= 100 ? line : `${line.slice(0, 99)}…`;
}

function listed(items: readonly string[]): string {
  return items.length <= 3 ? items.join(", ") : `${items.slice(0, 3).join(", ")}, … (${items.length - 3} more)`;
}

/**
 * One line on the replica verification (`--verify`): "Verified on a local replica: applying this
 * plan converges", or what failed and what would remain, and changes the replica cannot check.
 */
export function verificationLine(result: PushResult): string | undefined {
  const v = result.verification;
  if (v === undefined) return undefined;
  const parts: string[] = [];
  if (v.failures.length > 0) parts.push(`${v.failures.length} failed (${listed(v.failures.map((f) => `${f.changeId === undefined ? "" : `${f.changeId}: `}${f.code}: ${short(f.message)}`))})`);
  if (v.residual.length > 0) parts.push(`${v.residual.length} change(s) would remain after applying (${listed(v.residual.map((c) => `${c.id}: ${c.fields.join(", ")}`))})`);
  const unchecked = v.unchecked.length === 0 ? "" : `; unchecked: ${listed(v.unchecked.map((u) => `${u.changeId} (${u.reason})`))}`;
  return v.verified ? `Verified on a local replica: applying this plan converges${unchecked}` : `Not verified on a local replica: ${parts.join("; ")}${unchecked}`;
}

/** The `verification` part of the JSON document. */
export function verificationDocument(result: PushResult): { verified: boolean; residual: string[]; failures: { changeId: string | null; code: string; message: string }[]; unchecked: { changeId: string; reason: string }[]; ms: number } | undefined {
  const v = result.verification;
  if (v === undefined) return undefined;
  return {
    verified: v.verified,
    residual: v.residual.map((c) => c.id),
    failures: v.failures.map((f) => ({ changeId: f.changeId ?? null, code: f.code, message: f.message })),
    unchecked: v.unchecked.map((u) => ({ ...u })),
    ms: v.ms,
  };
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
  return [selectionLine(result), verificationLine(result), checksLine(result)].filter((line): line is string => line !== undefined);
}

/** The `selection` part of the JSON document. */
export function selectionDocument(result: PushResult): { targets: string[]; exclude: string[]; total: number; selected: number; pending: string[]; pendingConflicts: number } | undefined {
  const s = result.selection;
  if (s === undefined) return undefined;
  return { targets: [...s.targets], exclude: [...s.exclude], total: s.total, selected: result.changes.length, pending: s.pending.map((c) => c.id), pendingConflicts: s.pendingConflicts.length };
}
