import type { Change, PushResult } from "../../model/plan.js";
import { symbolFor } from "./plan-fields.js";
import { printedLines, type Printed } from "./outside-text.js";

/** The picture formats of `svc config plan --graph`. */
export type GraphFormat = "dot" | "mermaid";

/** Fill colours by action: the text view's green, yellow, red and magenta. */
const FILL: Record<Change["action"], string> = { create: "#d4f7d4", update: "#fff3c4", delete: "#ffd6d6", replace: "#f3d6ff" };
const STROKE: Record<Change["action"], string> = { create: "#2e7d32", update: "#b58900", delete: "#c62828", replace: "#8e24aa" };

/** Edges of the plan: dependency → dependent (the order apply runs them), in plan order. */
function edgesOf(changes: readonly Change[]): [Change, Change][] {
  const byId = new Map(changes.map((c) => [c.id, c]));
  return changes.flatMap((c) => c.dependsOn.flatMap((d) => {
    const from = byId.get(d);
    return from === undefined ? [] : [[from, c] as [Change, Change]];
  }));
}

/** Whether any change depends on another (the Markdown view then adds a diagram). */
export function hasDependentChanges(result: PushResult): boolean {
  return edgesOf(result.changes).length > 0;
}

function dotString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The plan's dependency graph in Graphviz DOT: one node per change (labelled with its symbol
 * and address, filled by action), an edge from each dependency to its dependent.
 */
export function renderPlanDot(result: PushResult): Printed {
  const lines = [
    `digraph ${dotString(`svc plan: ${result.branchName}`)} {`,
    "  rankdir=LR;",
    '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
  ];
  for (const c of result.changes) {
    lines.push(`  ${dotString(c.id)} [label=${dotString(`${symbolFor(c.action)} ${c.address}`)}, fillcolor=${dotString(FILL[c.action])}, color=${dotString(STROKE[c.action])}];`);
  }
  for (const [from, to] of edgesOf(result.changes)) lines.push(`  ${dotString(from.id)} -> ${dotString(to.id)};`);
  lines.push("}");
  return printedLines(lines);
}

/** Mermaid label text: quotes and markup characters as entity codes, so any address is safe. */
function mermaidLabel(text: string): string {
  return text.replace(/[#"<>&`|{}[\]()]/g, (ch) => `#${ch.charCodeAt(0)};`);
}

/**
 * The plan's dependency graph as a Mermaid flowchart (GitHub renders it): nodes `c0`, `c1`, …
 * in plan order labelled with symbol and address, one class per action, edges as in DOT.
 */
export function renderPlanMermaid(result: PushResult): Printed {
  const node = new Map(result.changes.map((c, i) => [c.id, `c${i}`]));
  const lines = ["flowchart LR"];
  for (const c of result.changes) lines.push(`  ${node.get(c.id)}["${mermaidLabel(`${symbolFor(c.action)} ${c.address}`)}"]:::${c.action}`);
  for (const [from, to] of edgesOf(result.changes)) lines.push(`  ${node.get(from.id)} --> ${node.get(to.id)}`);
  for (const action of ["create", "update", "delete", "replace"] as const) {
    if (result.changes.some((c) => c.action === action)) lines.push(`  classDef ${action} fill:${FILL[action]},stroke:${STROKE[action]},color:#000`);
  }
  return printedLines(lines);
}

/** The graph in the requested format. */
export function renderPlanGraph(result: PushResult, format: GraphFormat): Printed {
  return format === "dot" ? renderPlanDot(result) : renderPlanMermaid(result);
}

/**
 * The Markdown view's collapsible dependency diagram (a `mermaid` fence GitHub renders), or
 * `undefined` when no change depends on another.
 */
export function mermaidDetails(result: PushResult): string | undefined {
  if (!hasDependentChanges(result)) return undefined;
  return `<details><summary>Dependency graph</summary>\n\n\`\`\`mermaid\n${renderPlanMermaid(result)}\`\`\`\n\n</details>`;
}
