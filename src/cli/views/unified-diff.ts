import { printedLines, type Printed } from "./outside-text.js";

/**
 * A unified diff of two texts (line based, longest common subsequence, 3 lines of context),
 * for `svc config pull --write` before it overwrites a file. Meant for policy-sized files.
 */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): Printed {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  type Op = { kind: " " | "-" | "+"; line: string; ai: number; bi: number };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] ?? "", ai: i, bi: j });
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      ops.push({ kind: "-", line: a[i] ?? "", ai: i, bi: j });
      i += 1;
    } else {
      ops.push({ kind: "+", line: b[j] ?? "", ai: i, bi: j });
      j += 1;
    }
  }
  const context = 3;
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const groups: [number, number][] = [];
  for (const index of changed) {
    const last = groups[groups.length - 1];
    if (last !== undefined && index - last[1] <= context * 2) last[1] = index;
    else groups.push([index, index]);
  }
  for (const [from, to] of groups) {
    const hunk = ops.slice(Math.max(0, from - context), Math.min(ops.length, to + context + 1));
    const first = hunk[0] as Op;
    const oldCount = hunk.filter((o) => o.kind !== "+").length;
    const newCount = hunk.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${first.ai + 1},${oldCount} +${first.bi + 1},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return printedLines(out);
}
