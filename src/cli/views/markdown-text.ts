/** Markdown for outside text: escaped inline text, code spans and fenced blocks nothing inside can close. */
import { shown } from "./outside-text.js";

/**
 * Escapes user-controlled text for Markdown and HTML: `<`, `>`, `&`, `|`, backticks and emphasis;
 * line breaks and other unsafe characters as `\uXXXX` (`shown`).
 */
export function escapeMarkdown(text: string): string {
  return shown(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "&#124;")
    .replace(/`/g, "&#96;")
    .replace(/([\\*_[\]])/g, "\\$1");
}

/** An HTML `<code>` element holding `text`, escaped for use inside `<summary>`. */
export function htmlCode(text: string): string {
  return `<code>${shown(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</code>`;
}

/** A Markdown code span that survives backticks inside `text`. */
export function codeSpan(value: string): string {
  const text = shown(value);
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A fenced code block (info string `diff` by default) whose fence is longer than any backtick
 * run inside, so no line of `lines` can close it; each entry is one line, escaped by `shown`.
 */
export function diffBlock(lines: readonly string[], info = "diff"): string {
  const body = lines.map(shown).join("\n");
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}
