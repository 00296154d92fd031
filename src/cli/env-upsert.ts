/**
 * Setting variables in an existing env file without disturbing the rest (`--write-env`): pure
 * text in, text out; the writing itself is `write-env.ts`.
 */
import { envAssignment, envComment } from "../instant/env-file.js";

/** One variable to set. */
export interface EnvEntry {
  readonly name: string;
  readonly value: string;
}

/** Options of {@link upsertEnvText}. */
export interface UpsertEnvOptions {
  /**
   * The comment written above this writer's variables (without `# `; outside text in it is
   * escaped). Above variables appended at the end, and in place of the `# svc: …` comment right
   * above the first variable rewritten in place, so it never names a previous branch.
   */
  readonly header: string;
  /** Names this writer owns that should go when they are not in `entries` (a deleted function's URL). */
  readonly isStale?: (name: string) => boolean;
}

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*)$/;
/** The comments this writer puts above its variables. */
const OWN_HEADER = /^# svc: /;

/** The number of lines an assignment spans: more than one when a quoted value continues past its line. */
function spanOf(lines: readonly string[], start: number, value: string): number {
  const quote = value[0];
  if (quote !== '"' && quote !== "'" && quote !== "`") return 1;
  const closes = (text: string, from: number): boolean => {
    for (let i = from; i < text.length; i += 1) {
      if (text[i] === "\\" && quote === '"') i += 1;
      else if (text[i] === quote) return true;
    }
    return false;
  };
  if (closes(value, 1)) return 1;
  for (let end = start + 1; end < lines.length; end += 1) {
    if (closes(lines[end] ?? "", 0)) return end - start + 1;
  }
  return 1;
}

/**
 * The file text with every entry set. A name already assigned keeps its place (its first
 * assignment is rewritten, later ones dropped, so the app reads the new value whichever wins);
 * names not yet assigned are appended under `header` after a blank line; stale names are removed;
 * every other line stays byte for byte. Line endings follow the file (CRLF when its first break
 * is CRLF); a BOM is kept.
 */
export function upsertEnvText(existing: string | null, entries: readonly EnvEntry[], options: UpsertEnvOptions): string {
  const text = existing ?? "";
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const firstBreak = body.indexOf("\n");
  const eol = firstBreak > 0 && body[firstBreak - 1] === "\r" ? "\r\n" : "\n";
  const lines = body.length === 0 ? [] : body.replace(/\r?\n$/, "").split(/\r?\n/);
  const header = envComment(options.header);
  const wanted = new Map(entries.map((e) => [e.name, envAssignment(e.name, e.value)]));
  const written = new Set<string>();
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] ?? "";
    const match = ASSIGNMENT.exec(line);
    const span = match === null ? 1 : spanOf(lines, i, match[2] ?? "");
    const name = match?.[1];
    if (name !== undefined && wanted.has(name)) {
      if (written.size === 0 && OWN_HEADER.test(out[out.length - 1] ?? "")) out[out.length - 1] = header;
      if (!written.has(name)) out.push(wanted.get(name) ?? "");
      written.add(name);
    } else if (name === undefined || options.isStale?.(name) !== true) {
      out.push(...lines.slice(i, i + span));
    }
    i += span;
  }
  const missing = entries.filter((e) => !written.has(e.name));
  if (missing.length > 0) {
    if (out.length > 0 && out[out.length - 1] !== "") out.push("");
    out.push(header, ...missing.map((e) => wanted.get(e.name) ?? ""));
  }
  return out.length === 0 ? "" : bom + out.join(eol) + eol;
}
