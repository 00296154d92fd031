/**
 * Policy check results in every view: the text section, the one-line note, the Markdown section
 * and the JSON part, all from `PushResult.checks`. Check names and messages are outside text
 * (the checks file writes them): the text lines go through `printedLines`, Markdown escapes them.
 */
import { isBlockingCheck, type CheckResult } from "../../model/check-result.js";
import type { PushResult } from "../../model/plan.js";
import { escapeMarkdown } from "./markdown-text.js";
import type { Style } from "./view-model.js";

/** How a check ended: a violation of a mandatory check (or a failed check) blocks apply. */
type Outcome = "fail" | "warn" | "pass";

function outcomeOf(check: CheckResult): Outcome {
  if (isBlockingCheck(check)) return "fail";
  return check.violations.length > 0 ? "warn" : "pass";
}

/** Whether a check in `result` blocks apply (a mandatory violation, or a check that failed). */
export function hasBlockingCheck(result: Pick<PushResult, "checks">): boolean {
  return (result.checks ?? []).some(isBlockingCheck);
}

/** "Checks: 1 of 3 failed (blocks apply), 1 warned", or none when no checks ran. */
export function checksLine(result: Pick<PushResult, "checks">): string | undefined {
  const checks = result.checks;
  if (checks === undefined) return undefined;
  const failed = checks.filter((c) => outcomeOf(c) === "fail").length;
  const warned = checks.filter((c) => outcomeOf(c) === "warn").length;
  if (failed === 0 && warned === 0) return `Checks: ${checks.length} passed`;
  const parts = [...(failed > 0 ? [`${failed} of ${checks.length} failed (blocks apply)`] : [`${checks.length - warned} of ${checks.length} passed`]), ...(warned > 0 ? [`${warned} warned`] : [])];
  return `Checks: ${parts.join(", ")}`;
}

function enforcementNote(check: CheckResult): string {
  return check.error !== undefined ? "failed: counts as mandatory" : check.enforcement;
}

function violationText(v: { address?: string; message: string }): string {
  return v.address === undefined ? v.message : `${v.address}: ${v.message}`;
}

/** The text section: one line per check (FAIL, WARN or pass), its violations or failure under it. */
export function checksTextLines(result: Pick<PushResult, "checks">, style: Style): string[] {
  const checks = result.checks;
  if (checks === undefined || checks.length === 0) return [];
  const lines = [style.bold("Checks")];
  for (const check of checks) {
    const outcome = outcomeOf(check);
    const word = outcome === "fail" ? style.boldRed("FAIL") : outcome === "warn" ? style.yellow("WARN") : style.green("pass");
    lines.push(`  ${word}  ${check.name}${outcome === "pass" ? "" : `  (${enforcementNote(check)})`}`);
    if (check.error !== undefined) lines.push(`        ${check.error}`);
    for (const v of check.violations) lines.push(`        ${violationText(v)}`);
  }
  lines.push("");
  return lines;
}

/** Violations the Markdown section lists per check, and how much of a message it shows. */
const MARKDOWN_VIOLATIONS = 20;
const MARKDOWN_MESSAGE = 300;

function shortText(text: string): string {
  return text.length <= MARKDOWN_MESSAGE ? text : `${text.slice(0, MARKDOWN_MESSAGE)}…`;
}

/**
 * The Markdown section: every check that failed or warned with its violations (at most
 * {@link MARKDOWN_VIOLATIONS} each, messages cut), then the passed ones on one line.
 */
export function checksMarkdownBlock(result: Pick<PushResult, "checks">): string[] {
  const checks = result.checks;
  if (checks === undefined || checks.length === 0) return [];
  const lines = ["#### Checks", ""];
  const passed: string[] = [];
  for (const check of checks) {
    const outcome = outcomeOf(check);
    if (outcome === "pass") {
      passed.push(escapeMarkdown(check.name));
      continue;
    }
    lines.push(`- **${outcome === "fail" ? "FAIL" : "WARN"}** ${escapeMarkdown(check.name)} (${enforcementNote(check)})`);
    const items = [...(check.error === undefined ? [] : [check.error]), ...check.violations.map(violationText)];
    for (const item of items.slice(0, MARKDOWN_VIOLATIONS)) lines.push(`  - ${escapeMarkdown(shortText(item))}`);
    if (items.length > MARKDOWN_VIOLATIONS) lines.push(`  - … and ${items.length - MARKDOWN_VIOLATIONS} more (run svc config plan for all of them)`);
  }
  if (passed.length > 0) lines.push(`- passed: ${passed.join(", ")}`);
  return [lines.join("\n")];
}

/** The `checks` part of the JSON document: each check with its violations (`address` null when none). */
export function checksDocument(result: Pick<PushResult, "checks">): { name: string; enforcement: CheckResult["enforcement"]; violations: { address: string | null; message: string }[]; error: string | null }[] | undefined {
  return result.checks?.map((c) => ({
    name: c.name,
    enforcement: c.enforcement,
    violations: c.violations.map((v) => ({ address: v.address ?? null, message: v.message })),
    error: c.error ?? null,
  }));
}
