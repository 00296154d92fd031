import type { PushResult } from "../../model/plan.js";
import { outputsOf } from "./json-plan.js";
import { symbolFor } from "./plan-fields.js";
import { PLAIN_STYLE, type Style } from "./view-model.js";
import { printedLines, type Printed } from "./outside-text.js";
import { formatSeconds } from "./seconds.js";

/** `Apply complete: 1 created, 3 updated, 1 deleted in 48.2s`: the result line (`--quiet` prints only it). */
export function applyCompleteLine(result: PushResult, durationMs: number): string {
  let created = 0;
  let updated = 0;
  let deleted = 0;
  for (const change of result.applied) {
    if (change.action === "create") created += 1;
    else if (change.action === "update") updated += 1;
    else if (change.action === "delete") deleted += 1;
    else {
      created += 1;
      deleted += 1;
    }
  }
  return `Apply complete: ${created} created, ${updated} updated, ${deleted} deleted in ${formatSeconds(durationMs)}`;
}

/** The result line and the outputs (function URLs, CNAME targets). */
export function renderApplyComplete(result: PushResult, durationMs: number): Printed {
  const lines = [applyCompleteLine(result, durationMs)];
  const outputs = outputsOf(result);
  if (outputs.length > 0) {
    const width = Math.max(...outputs.map((o) => o.address.length)) + 4;
    lines.push("Outputs");
    for (const output of outputs) {
      const label = output.name === "cnameTarget" ? `CNAME target ${output.value}` : output.value;
      lines.push(`  ${output.address.padEnd(width)}${label}`);
    }
  }
  return printedLines(lines);
}

/** The changes applied, in plan order. */
function appliedInPlanOrder(result: PushResult): PushResult["applied"] {
  const order = new Map(result.changes.map((c, i) => [c.id, i] as const));
  return result.dryRun ? [] : [...result.applied].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/** One line per applied change, in plan order: its plan symbol and address (`  + bucket.avatars`); `[]` when none. */
export function appliedChangeLines(result: PushResult): string[] {
  return appliedInPlanOrder(result).map((change) => `  ${symbolFor(change.action)} ${change.address}`);
}

/**
 * What happened, in plan order, after a partial failure or an interrupt:
 * `Applied (n)`, `Failed (n)` with errors, `Skipped (n)` with what blocked them.
 */
export function renderOutcomeLists(result: PushResult, style: Style = PLAIN_STYLE): Printed {
  const order = new Map(result.changes.map((c, i) => [c.id, i] as const));
  const byPlan = <T>(items: readonly T[], id: (item: T) => string): T[] =>
    [...items].sort((a, b) => (order.get(id(a)) ?? 0) - (order.get(id(b)) ?? 0));
  const applied = appliedInPlanOrder(result);
  const failed = byPlan(result.failed, (f) => f.change.id);
  const skipped = byPlan(result.skipped, (s) => s.change.id);
  const lines: string[] = [];
  lines.push(`Applied (${applied.length})`);
  if (applied.length === 0) lines.push("  nothing was applied");
  for (const change of applied) lines.push(`  ${style.green("✔")} ${change.address} (${change.action})`);
  lines.push(`Failed (${failed.length})`);
  for (const f of failed) {
    lines.push(`  ${style.red("✘")} ${f.change.address} (${f.change.action})`);
    lines.push(`      ${f.error.code}: ${f.error.message.split("\n")[0] ?? ""}`);
  }
  lines.push(`Skipped (${skipped.length})`);
  for (const s of skipped) {
    const blocked = s.blockedBy === undefined ? s.reason : `blocked by ${s.blockedBy}`;
    lines.push(`  · ${s.change.address} (${blocked})`);
  }
  lines.push("Run svc config plan to see what remains.");
  return printedLines(lines);
}
