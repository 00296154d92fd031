import type { Change, ConflictReport, PushResult } from "../../model/plan.js";
import { changeFields, conflictFieldLine, flagsForClass, formatFieldLine, symbolFor } from "./plan-fields.js";
import { mermaidDetails } from "./graph.js";
import { printedDocument, shown, type Printed } from "./outside-text.js";
import { codeSpan, diffBlock, escapeMarkdown, htmlCode } from "./markdown-text.js";
import { planNotes } from "./plan-notes.js";
import { checksMarkdownBlock } from "./checks-view.js";
import { resolutionFor } from "./resolutions.js";
import { conflictAddress, sortedUnmanaged } from "./text-plan.js";
import { noChangesLine, summaryLine, type ViewTarget } from "./view-model.js";

/** GitHub's comment limit is 65,536; we stay well below. */
export const MARKDOWN_BUDGET = 60_000;

/** Characters kept free for the truncation notice. */
const NOTICE_RESERVE = 400;

function needsCell(change: Change): string {
  const flags = flagsForClass(change.class);
  return flags.length === 0 ? "" : flags.map((f) => `\`${f}\``).join(" ");
}

/** The engine's warnings (`PARENT_NOT_FOUND`, `BUNDLER`, …) as one list, or none. */
function engineWarningBlock(result: PushResult): string[] {
  if (result.warnings.length === 0) return [];
  const items = result.warnings.map((w) => `- ${codeSpan(w.code)}${w.address === undefined ? "" : ` ${escapeMarkdown(w.address)}`}: ${escapeMarkdown(w.message)}`);
  return [["**Warnings**", ...items].join("\n")];
}

/** The `> [!WARNING]` callout as one block (one line per flag apply will need), or none. */
function warningBlock(result: PushResult, target: ViewTarget): string[] {
  const lines: string[] = [];
  const blocking = result.conflicts.filter((c) => c.blocking).length;
  if (blocking > 0) lines.push(`${blocking} blocking conflict(s): apply will refuse until they are resolved.`);
  const override = result.changes.filter((c) => c.class === "override").length;
  const destructive = result.changes.filter((c) => c.class === "destructive");
  if (override + destructive.length > 0) {
    lines.push(`${override + destructive.length} change(s) override existing settings or delete resources: apply needs \`--update-existing\`.`);
  }
  if (destructive.length > 0) {
    const addresses = destructive.map((c) => escapeMarkdown(c.address)).join(", ");
    lines.push(`${destructive.length} change(s) delete stored data (${addresses}): apply needs \`--allow-data-loss\`.`);
  }
  if (target.branchProtected && result.changes.length > 0) {
    lines.push(`Branch ${escapeMarkdown(target.branchName)} is protected: apply needs \`--allow-protected\`.`);
  }
  if (lines.length === 0) return [];
  return [["> [!WARNING]", ...lines.map((line, i) => `> ${line}${i < lines.length - 1 ? "  " : ""}`)].join("\n")];
}

function conflictRow(conflict: ConflictReport): string {
  return `| ! | ${escapeMarkdown(conflictAddress(conflict))} | conflict ${escapeMarkdown(conflict.code)} | blocks apply |`;
}

function changeRow(change: Change): string {
  return `| ${escapeMarkdown(symbolFor(change.action))} | ${escapeMarkdown(change.address)} | ${change.action} | ${needsCell(change)} |`;
}

function conflictDetails(conflict: ConflictReport, configPath: string): string {
  const lines = [
    `! ${conflictFieldLine(conflict)}`,
    `  reason:  ${conflict.reason}`,
    `  resolve: ${resolutionFor(conflict.code, configPath)}`,
  ];
  return `<details><summary>${htmlCode(`! ${conflictAddress(conflict)}`)} (conflict ${escapeMarkdown(conflict.code)})</summary>\n\n${diffBlock(lines)}\n\n</details>`;
}

function changeDetails(change: Change): string {
  const prefix = change.action === "create" ? "+" : change.action === "delete" ? "-" : "~";
  const fields = changeFields(change).map((f) => `${prefix} ${formatFieldLine(f)}`);
  const lines = [...fields, `  reason: ${change.reason}`];
  return `<details><summary>${htmlCode(`${symbolFor(change.action)} ${change.address}`)} (${change.action})</summary>\n\n${diffBlock(lines)}\n\n</details>`;
}

/**
 * The plan as a pull-request comment: marker, heading, summary, warning callout,
 * table, unmanaged list and one collapsible section per change and conflict, at most
 * {@link MARKDOWN_BUDGET} characters with a truncation notice. Byte-identical for the same plan.
 */
export function renderPlanMarkdown(result: PushResult, target: ViewTarget, budget: number = MARKDOWN_BUDGET): Printed {
  // Blocks are separated by a blank line, so a callout never swallows the table after it.
  const blocks: string[] = [
    `<!-- svc-plan v1 project=${shown(target.projectId)} branch=${shown(target.branchId)} -->\n### svc plan: ${escapeMarkdown(target.branchName)}`,
    `Project ${codeSpan(target.projectId)} · branch ${codeSpan(target.branchId)} · API ${codeSpan(target.apiHost)} · config ${codeSpan(target.configPath)}`,
  ];
  if (result.changes.length === 0 && result.conflicts.length === 0 && result.selection === undefined) blocks.push(`**${noChangesLine(target.branchName, escapeMarkdown(target.configPath))}**`);
  blocks.push(`**${summaryLine(result)}**`, ...planNotes(result).map(escapeMarkdown), ...warningBlock(result, target), ...engineWarningBlock(result), ...checksMarkdownBlock(result));

  const tableRows = [...result.conflicts.map(conflictRow), ...result.changes.map(changeRow)];
  const unmanaged = sortedUnmanaged(result.unmanaged).map(
    (e) => `- ${escapeMarkdown(e.address)}${e.inherited ? " (inherited)" : ""}: ${escapeMarkdown(e.reason)}`,
  );
  const details = [...result.conflicts.map((c) => conflictDetails(c, target.configPath)), ...result.changes.map(changeDetails)];

  let out = `${blocks.join("\n\n")}\n\n`;
  const limit = budget - NOTICE_RESERVE;
  const fits = (extra: string): boolean => out.length + extra.length <= limit;

  let shownRows = 0;
  if (tableRows.length > 0) {
    out += "| | Address | Action | Needs |\n|---|---|---|---|\n";
    for (const [i, row] of tableRows.entries()) {
      const isConflict = i < result.conflicts.length;
      if (!isConflict && !fits(`${row}\n`)) break;
      out += `${row}\n`;
      shownRows += 1;
    }
    out += "\n";
  }
  let shownUnmanaged = 0;
  if (unmanaged.length > 0 && fits("#### Unmanaged\n\n")) {
    out += `#### Unmanaged\n\nOn the branch, not declared in ${escapeMarkdown(target.configPath)}; left unchanged.\n\n`;
    for (const line of unmanaged) {
      if (!fits(`${line}\n`)) break;
      out += `${line}\n`;
      shownUnmanaged += 1;
    }
    out += "\n";
  }
  const diagram = mermaidDetails(result);
  if (diagram !== undefined && fits(`${diagram}\n\n`)) out += `${diagram}\n\n`;
  let shownDetails = 0;
  for (const section of details) {
    if (!fits(`${section}\n\n`)) break;
    out += `${section}\n\n`;
    shownDetails += 1;
  }
  const truncated = shownRows < tableRows.length || shownUnmanaged < unmanaged.length || shownDetails < details.length;
  if (truncated) {
    out +=
      `> **Truncated.** Showing ${shownRows} of ${tableRows.length} table rows, ${shownUnmanaged} of ${unmanaged.length} unmanaged entries ` +
      `and ${shownDetails} of ${details.length} detail sections. ` +
      "Run svc config plan locally or open the job log for the full plan.\n";
  }
  return printedDocument(out.endsWith("\n\n") ? out.slice(0, -1) : out);
}
