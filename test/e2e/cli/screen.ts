/**
 * A minimal terminal model for pseudo-terminal transcripts: replays printable text, CR, LF,
 * "cursor to start of N lines up" (CSI n F), "clear to end of screen" (CSI J) and ignores
 * colours, so a test can check what a user would see at the end, and how wide it got.
 */
export interface Screen {
  /** The final lines, trailing spaces removed. */
  lines: string[];
}

/** Replays `transcript` (no autowrap modelling, so over-long lines stay visible as such). */
export function replay(transcript: string): Screen {
  const lines: string[] = [""];
  let row = 0;
  let col = 0;
  const chars = [...transcript];
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] as string;
    if (ch === "\u001b" && chars[i + 1] === "[") {
      let j = i + 2;
      let params = "";
      while (j < chars.length && /[0-9;?]/.test(chars[j] as string)) params += chars[j++];
      const command = chars[j];
      const n = Number(params || "1");
      if (command === "F") {
        row = Math.max(0, row - n);
        col = 0;
      } else if (command === "J") {
        lines[row] = (lines[row] ?? "").slice(0, col);
        lines.length = row + 1;
      } else if (command === "K") {
        lines[row] = (lines[row] ?? "").slice(0, col);
      }
      i = j;
      continue;
    }
    if (ch === "\r") {
      col = 0;
    } else if (ch === "\n") {
      row += 1;
      col = 0;
      while (lines.length <= row) lines.push("");
    } else if (ch >= " " || ch === "\t") {
      const line = (lines[row] ?? "").padEnd(col, " ");
      lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
      col += 1;
    }
  }
  return { lines: lines.map((l) => l.trimEnd()) };
}
