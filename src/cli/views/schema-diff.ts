/**
 * The schema difference between two branches, as `svc branch diff` and `plan --schema-diff` show it:
 * the platform's unified diff without the lines that change nothing a reviewer decides on
 * (ownership, `ALTER … OWNER TO`, and `COMMENT ON`), as text, JSON or a collapsible Markdown section.
 * Every line of the diff is outside text (table and column names) and leaves through the escaping edge.
 */
import { htmlCode, diffBlock } from "./markdown-text.js";
import { printedLines, shown, type Printed } from "./outside-text.js";
import type { Style } from "./view-model.js";

/** Two branches' schemas of one database compared. */
export interface SchemaDiffView {
  branch: { id: string; name: string };
  /** The branch compared with; `parent` when it is the branch's parent (no `--base`). */
  base: { id: string; name: string; parent: boolean };
  database: string;
  /** The diff's lines without noise (headers, hunks); empty when the schemas match. */
  lines: string[];
}

/** Most characters of a schema diff a Markdown section holds (a pull-request comment has a limit). */
export const SCHEMA_DIFF_MARKDOWN_BUDGET = 20_000;

/** A statement that changes ownership or a comment: noise in a review. */
const NOISE = /^\s*(?:ALTER\s.*\sOWNER\s+TO\s|COMMENT\s+ON\s)/i;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  tail: string;
  lines: string[];
}

function range(start: number, count: number, originalCount: number): string {
  // A range of no lines names the line before it.
  const at = count === 0 && originalCount > 0 ? start - 1 : start;
  return `${Math.max(0, at)},${count}`;
}

/** Whether `text` ends a statement: outside any quoted literal or name, with a final `;`. */
function endsStatement(text: string): boolean {
  let quote: string | undefined;
  for (const char of text) {
    if (quote === undefined && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = undefined;
  }
  // A doubled quote inside a literal closes and reopens it: the parity above still holds.
  return quote === undefined && text.trimEnd().endsWith(";");
}

/**
 * Which lines of a hunk belong to a noise statement: its first line, and the lines a comment whose
 * literal spans several lines continues on, followed on each side (old: ` ` and `-` lines, new:
 * ` ` and `+` lines), since the two sides' comments may differ on any line.
 */
function noiseLines(lines: readonly string[]): boolean[] {
  const open = { old: undefined as string | undefined, new: undefined as string | undefined };
  return lines.map((line) => {
    const sides = line.startsWith(" ") ? (["old", "new"] as const) : line.startsWith("-") ? (["old"] as const) : line.startsWith("+") ? (["new"] as const) : [];
    const text = line.slice(1);
    const continues = sides.some((side) => open[side] !== undefined);
    if (!continues && !NOISE.test(text)) return false;
    for (const side of sides) {
      const statement = continues ? `${open[side] ?? ""}\n${text}` : text;
      open[side] = endsStatement(statement) ? undefined : statement;
    }
    return true;
  });
}

/**
 * The lines of a unified diff without ownership and comment statements, a comment's continuation
 * lines included (and the blank line before each, on the same side): each hunk keeps its other
 * lines with its counts and starts recomputed (starts move up by the noise dropped before them); a
 * hunk left with no change but blank lines is dropped; no hunk left means no difference (`[]`).
 */
export function quietSchemaDiff(diff: string): string[] {
  const header: string[] = [];
  const hunks: Hunk[] = [];
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    const match = HUNK.exec(line);
    const current = hunks.at(-1);
    if (match !== null) {
      hunks.push({ oldStart: Number(match[1]), oldCount: Number(match[2] ?? 1), newStart: Number(match[3]), newCount: Number(match[4] ?? 1), tail: match[5] ?? "", lines: [] });
    } else if (current === undefined) {
      if (line !== "") header.push(line);
    } else {
      current.lines.push(line);
    }
  }
  const out: string[] = [];
  let droppedOld = 0;
  let droppedNew = 0;
  for (const hunk of hunks) {
    const kept: string[] = [];
    const dropped: string[] = [];
    const noise = noiseLines(hunk.lines);
    hunk.lines.forEach((line, i) => {
      if (noise[i] !== true) {
        kept.push(line);
        return;
      }
      // The blank line that set the statement apart goes with it (statements are paragraphs).
      if (kept.at(-1) === line.charAt(0)) dropped.push(kept.pop() as string);
      dropped.push(line);
    });
    const oldCount = kept.filter((line) => !line.startsWith("+") && !line.startsWith("\\")).length;
    const newCount = kept.filter((line) => !line.startsWith("-") && !line.startsWith("\\")).length;
    const changes = kept.some((line) => (line.startsWith("+") || line.startsWith("-")) && line.slice(1).trim() !== "");
    if (changes) out.push(`@@ -${range(hunk.oldStart - droppedOld, oldCount, hunk.oldCount)} +${range(hunk.newStart - droppedNew, newCount, hunk.newCount)} @@${hunk.tail}`, ...kept);
    droppedOld += dropped.filter((line) => !line.startsWith("+")).length;
    droppedNew += dropped.filter((line) => !line.startsWith("-")).length;
  }
  return out.length === 0 ? [] : [...header, ...out];
}

/** Lines added and removed in the hunks (a removed `-- comment` line is one; the headers are not). */
function counts(lines: readonly string[]): { added: number; removed: number } {
  const body = lines.slice(Math.max(0, lines.findIndex((line) => line.startsWith("@@"))));
  return { added: body.filter((line) => line.startsWith("+")).length, removed: body.filter((line) => line.startsWith("-")).length };
}

/** `preview/pr-42 (br-…) against its parent main (br-…), database neondb`. */
function comparedLine(view: SchemaDiffView): string {
  const base = `${view.base.parent ? "its parent " : ""}${view.base.name} (${view.base.id})`;
  return `${view.branch.name} (${view.branch.id}) against ${base}, database ${view.database}`;
}

/** The heading `svc branch diff` prints to stderr above a diff (none when the schemas match). */
export function schemaDiffHeading(view: SchemaDiffView): string | undefined {
  if (view.lines.length === 0) return undefined;
  const { added, removed } = counts(view.lines);
  return `Schema diff of ${comparedLine(view)}: ${added} ${added === 1 ? "line" : "lines"} added, ${removed} removed`;
}

/** The diff as text (coloured when `style` colours), or one line saying the schemas match. */
export function renderSchemaDiffText(view: SchemaDiffView, style: Style): Printed {
  if (view.lines.length === 0) return printedLines([`No schema differences: ${comparedLine(view)}.`]);
  const firstHunk = view.lines.findIndex((line) => line.startsWith("@@"));
  return printedLines(
    view.lines.map((line, i) => {
      if (i < firstHunk) return style.bold(line);
      if (line.startsWith("@@")) return style.magenta(line);
      if (line.startsWith("+")) return style.green(line);
      if (line.startsWith("-")) return style.red(line);
      return line;
    }),
  );
}

/** The JSON document of `svc branch diff --json`. */
export function schemaDiffDocument(view: SchemaDiffView, projectId: string): object {
  return {
    formatVersion: 1,
    command: "branch diff",
    projectId,
    branch: view.branch,
    base: view.base,
    database: view.database,
    identical: view.lines.length === 0,
    diff: view.lines.length === 0 ? "" : `${view.lines.join("\n")}\n`,
  };
}

/**
 * The diff as a collapsible Markdown section for a pull-request comment: a `<details>` whose summary
 * names the branches and counts the lines, holding a fenced `diff` block nothing inside can close; at
 * most `budget` characters (lines past it are left out and counted).
 */
export function renderSchemaDiffMarkdown(view: SchemaDiffView, budget: number = SCHEMA_DIFF_MARKDOWN_BUDGET): string {
  const names = `${htmlCode(view.branch.name)} against ${view.base.parent ? "its parent " : ""}${htmlCode(view.base.name)}, database ${htmlCode(view.database)}`;
  if (view.lines.length === 0) return `<details><summary>Schema diff: none (${names})</summary>\n\nNo schema differences.\n\n</details>`;
  const { added, removed } = counts(view.lines);
  const open = `<details><summary>Schema diff: ${added} added, ${removed} removed (${names})</summary>\n\n`;
  const lines: string[] = [];
  let size = open.length + 200;
  for (const line of view.lines) {
    const width = shown(line).length + 1;
    if (size + width > budget) break;
    lines.push(line);
    size += width;
  }
  const left = view.lines.length - lines.length;
  const notice = left === 0 ? "" : `\n\n${left} more lines not shown: run \`svc branch diff\` for the whole diff.`;
  return `${open}${diffBlock(lines)}${notice}\n\n</details>`;
}
