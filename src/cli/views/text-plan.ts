import { addressOf } from "../../kinds/list.js";
import type { Change, ConflictReport, PushResult, UnmanagedEntry } from "../../model/plan.js";
import { changeFields, conflictFieldLine, flagsForClass, formatFieldLine, symbolFor } from "./plan-fields.js";
import { planNotes } from "./plan-notes.js";
import { checksTextLines } from "./checks-view.js";
import { resolutionFor } from "./resolutions.js";
import { PLAIN_STYLE, noChangesLine, summaryLine, type Style } from "./view-model.js";
import { printedLines, type Printed } from "./outside-text.js";

/** Column where the `[override: …]` marks start, unless an address is longer. */
const MARK_COLUMN = 45;

function colorSymbol(action: Change["action"], style: Style): string {
  const symbol = symbolFor(action);
  switch (action) {
    case "create":
      return style.green(symbol);
    case "update":
      return style.yellow(symbol);
    case "delete":
      return style.red(symbol);
    case "replace":
      return style.magenta(symbol);
  }
}

/** What the text view knows beyond the plan: the branch's protection and the flags already given. */
export interface TextPlanOptions {
  /** The target branch is protected: the summary is followed by the flag apply needs. */
  branchProtected?: boolean;
  /** The policy file the plan came from, as the echo shows it. @default "svc.ts" */
  configPath?: string;
  /** Flags this run already grants; a mark names only the flags still needed. */
  granted?: { updateExisting?: boolean; allowDataLoss?: boolean; allowProtected?: boolean };
}

function markFor(change: Change, granted: TextPlanOptions["granted"] = {}): string {
  const flags = flagsForClass(change.class);
  if (flags.length === 0) return "";
  const still = flags.filter((f) => !(f === "--update-existing" && granted.updateExisting === true) && !(f === "--allow-data-loss" && granted.allowDataLoss === true));
  return still.length === 0 ? `[${change.class}]` : `[${change.class}: needs ${still.join(" ")}]`;
}

function changeBlock(change: Change, markColumn: number, style: Style, granted: TextPlanOptions["granted"]): string[] {
  const head = `  ${symbolFor(change.action)} ${change.address}`;
  const mark = markFor(change, granted);
  const pad = mark === "" ? "" : " ".repeat(Math.max(2, markColumn - head.length));
  const lines = [`  ${colorSymbol(change.action, style)} ${change.address}${pad}${mark}`];
  for (const field of changeFields(change)) lines.push(`      ${formatFieldLine(field)}`);
  lines.push(`      reason: ${change.reason}`);
  return lines;
}

/** Unmanaged entries sorted by address in code-point order. */
export function sortedUnmanaged(entries: readonly UnmanagedEntry[]): UnmanagedEntry[] {
  return [...entries].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

function conflictBlock(conflict: ConflictReport, style: Style, configPath: string | undefined): string[] {
  const address = conflictAddress(conflict);
  return [
    `  ${style.boldRed("!")} ${address}  ${conflict.code}`,
    `      ${conflictFieldLine(conflict)}`,
    `      reason:  ${conflict.reason}`,
    `      resolve: ${resolutionFor(conflict.code, configPath)}`,
  ];
}

/** The plan address a conflict is about (`compute`, `bucket.avatars`, …). */
export function conflictAddress(conflict: ConflictReport): string {
  return addressOf(conflict.kind, conflict.identifier);
}

/**
 * The plan as text: changes with field lines and marks, unmanaged entries,
 * conflicts with how to resolve them, and the summary line, then what applying it needs on a
 * protected branch. Marks drop the flags `options.granted` already gives. Secret-free by construction.
 */
export function renderPlanText(result: PushResult, style: Style = PLAIN_STYLE, options: TextPlanOptions = {}): Printed {
  const lines: string[] = [];
  if (result.changes.length === 0 && result.conflicts.length === 0 && result.selection === undefined) lines.push(noChangesLine(result.branchName, options.configPath), "");
  if (result.changes.length > 0) {
    const widest = Math.max(...result.changes.map((c) => `  ${symbolFor(c.action)} ${c.address}`.length + 2));
    const markColumn = Math.max(MARK_COLUMN, widest);
    lines.push(style.bold("Changes"));
    for (const change of result.changes) lines.push(...changeBlock(change, markColumn, style, options.granted));
    lines.push("");
  }
  if (result.unmanaged.length > 0) {
    lines.push(style.bold(`Unmanaged (on the branch, not declared in ${options.configPath ?? "svc.ts"}; left unchanged)`));
    for (const entry of sortedUnmanaged(result.unmanaged)) {
      lines.push(`  ${entry.address}${entry.inherited ? " (inherited)" : ""}`);
    }
    lines.push("");
  }
  if (result.conflicts.length > 0) {
    lines.push(style.bold("Conflicts (block apply)"));
    for (const conflict of result.conflicts) lines.push(...conflictBlock(conflict, style, options.configPath));
    lines.push("");
  }
  if (result.warnings.length > 0) {
    lines.push(style.bold("Warnings"));
    for (const warning of result.warnings) {
      lines.push(`  ${warning.code}${warning.address ? ` ${warning.address}` : ""}: ${warning.message}`);
    }
    lines.push("");
  }
  lines.push(...checksTextLines(result, style), summaryLine(result), ...planNotes(result));
  if (options.branchProtected === true && result.changes.length > 0 && options.granted?.allowProtected !== true) {
    lines.push(`Branch ${result.branchName} is protected: apply needs --allow-protected.`);
  }
  return printedLines(lines);
}
