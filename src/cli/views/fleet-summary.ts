import type { FleetBranchOutcome, FleetResult } from "../../engine/fleet.js";
import { ErrorCode } from "../../errors/codes.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { JsonError } from "./json-schema.js";
import { describeError, exitCodeFor, toJsonError } from "./error-view.js";
import { escapeMarkdown } from "./markdown-text.js";
import { hasBlockingAnywhere, hasPendingOutside } from "./plan-notes.js";
import { hasBlockingCheck } from "./checks-view.js";
import { printedLines, type Printed } from "./outside-text.js";

/** One line of the fleet summary table. */
export interface FleetRow {
  branchId: string;
  branchName: string;
  /** Changes planned (plan) or applied (apply); null when the branch has no result. */
  changes: number | null;
  conflicts: number | null;
  /** A short word: `changes`, `no changes`, `conflicts`, `applied`, `partial`, `needs …`, `error`. */
  result: string;
  /** The exit code this branch alone would give. */
  exitCode: number;
  error: JsonError | null;
}

/** Exit codes from best to worst: an error (1) or an interrupt outranks every plan outcome. */
const SEVERITY = [0, 2, 3, 8, 4, 5, 6, 7, 1, 130];

/** The worst exit code of a fleet run (0 when there are no branches). */
export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst) ? code : worst), 0);
}

function needsFlags(err: unknown): string {
  const reasons = (err as { details?: { reasons?: unknown } }).details?.reasons;
  const list = Array.isArray(reasons) ? reasons : [];
  const flags = [...(list.includes("override-updates") ? ["--update-existing"] : []), ...(list.includes("protected-branch") ? ["--allow-protected"] : [])];
  return `needs ${flags.join(" ") || "confirmation"}`;
}

function rowOf(outcome: FleetBranchOutcome, dryRun: boolean, detailedExitcode: boolean): FleetRow {
  const base = { branchId: outcome.branchId, branchName: outcome.branchName };
  const r = outcome.result;
  const counts = { changes: r === undefined ? null : dryRun ? r.changes.length : r.applied.length, conflicts: r === undefined ? null : r.conflicts.filter((c) => c.blocking).length };
  if (outcome.error !== undefined) {
    const error = toJsonError(describeError(outcome.error));
    // Without a confirm answer the engine aborts; in a fleet that means a flag is missing (exit 4).
    if (isPlatformError(outcome.error, ErrorCode.PUSH_ABORTED)) return { ...base, ...counts, result: needsFlags(outcome.error), exitCode: 4, error };
    const exitCode = exitCodeFor(outcome.error);
    const result = exitCode === 3 ? "conflicts" : exitCode === 8 ? "checks failed" : exitCode === 7 ? "partial" : exitCode === 130 ? "interrupted" : `error ${error.code}`;
    return { ...base, ...counts, result, exitCode, error };
  }
  if (r === undefined) return { ...base, ...counts, result: "error", exitCode: 1, error: null };
  if (!dryRun) return { ...base, ...counts, result: r.applied.length > 0 ? "applied" : "no changes", exitCode: 0, error: null };
  const blocking = hasBlockingAnywhere(r);
  const failedCheck = hasBlockingCheck(r);
  const changed = r.changes.length > 0 || hasPendingOutside(r);
  const result = blocking ? "conflicts" : failedCheck ? "checks failed" : changed ? "changes" : "no changes";
  return { ...base, ...counts, result, exitCode: detailedExitcode ? (blocking ? 3 : failedCheck ? 8 : changed ? 2 : 0) : 0, error: null };
}

/** The summary rows of a fleet run, in branch-name order. */
export function fleetRows(fleet: FleetResult, options: { detailedExitcode: boolean }): FleetRow[] {
  return fleet.branches.map((o) => rowOf(o, fleet.dryRun, options.detailedExitcode));
}

function cell(value: number | null): string {
  return value === null ? "-" : String(value);
}

/** The closing line: how many branches, and how they ended. */
export function fleetSummaryLine(rows: readonly FleetRow[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const word = row.result.startsWith("error") ? "failed" : row.result.startsWith("needs") ? "need flags" : row.result;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const parts = [...counts].map(([word, n]) => `${n} ${word}`);
  return `Fleet: ${rows.length} branch${rows.length === 1 ? "" : "es"}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}

/** The summary table as text: branch, changes, conflicts, result (errors on the next line). */
export function renderFleetText(rows: readonly FleetRow[]): Printed {
  const width = Math.max(6, ...rows.map((r) => r.branchName.length));
  const lines = [`${"Branch".padEnd(width)}  Changes  Conflicts  Result`];
  for (const row of rows) {
    lines.push(`${row.branchName.padEnd(width)}  ${cell(row.changes).padStart(7)}  ${cell(row.conflicts).padStart(9)}  ${row.result}`);
    if (row.error !== null) lines.push(`${" ".repeat(width)}  ${row.error.code}: ${row.error.message.split("\n")[0] ?? ""}`);
  }
  lines.push("", fleetSummaryLine(rows));
  return printedLines(lines);
}

/** The summary table as Markdown (a pull-request comment); stable for the same outcomes. */
export function renderFleetMarkdown(rows: readonly FleetRow[], projectId: string, command: "plan" | "apply"): Printed {
  const lines = [
    `<!-- svc-fleet v1 project=${projectId} -->`,
    `### svc ${command}: ${rows.length} branch${rows.length === 1 ? "" : "es"} of \`${projectId}\``,
    "",
    `**${fleetSummaryLine(rows)}**`,
    "",
    "| Branch | Changes | Conflicts | Result |",
    "|---|---:|---:|---|",
    ...rows.map((r) => `| ${escapeMarkdown(r.branchName)} | ${cell(r.changes)} | ${cell(r.conflicts)} | ${escapeMarkdown(r.error === null ? r.result : `${r.result}: ${r.error.message.split("\n")[0] ?? ""}`)} |`),
  ];
  return printedLines(lines);
}

/** The fleet JSON document (`--json` with `--branches`). */
export function buildFleetDocument(rows: readonly FleetRow[], meta: { command: "plan" | "apply"; cliVersion: string; projectId: string; branches: string; exitCode: number }): object {
  return {
    formatVersion: 1,
    command: meta.command,
    cliVersion: meta.cliVersion,
    fleet: { projectId: meta.projectId, branches: meta.branches, exitCode: meta.exitCode, summary: fleetSummaryLine(rows) },
    branches: rows.map((r) => ({ branchId: r.branchId, branchName: r.branchName, changes: r.changes, conflicts: r.conflicts, result: r.result, exitCode: r.exitCode, error: r.error })),
  };
}
