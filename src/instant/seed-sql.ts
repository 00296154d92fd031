/**
 * Splitting a seed file into statements, before anything is created. The splitter
 * understands single quotes (with `E''` escapes), double-quoted identifiers, dollar quotes, `--`
 * comments and nested block comments, and records where each statement starts.
 */
import { ErrorCode, PlatformError } from "../errors/index.js";

/** One statement of a seed file. */
export interface SeedStatement {
  /** The statement text without its terminating `;`, starting at its first significant character. */
  readonly text: string;
  /** Offset of `text` in the file (after the BOM was stripped). */
  readonly offset: number;
  /** 1-based line and column of the statement's start. */
  readonly line: number;
  readonly column: number;
}

/** 1-based line and column of an offset in `source`. */
export function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

function invalid(file: string, source: string, offset: number, message: string): PlatformError {
  const { line, column } = lineAndColumn(source, offset);
  return new PlatformError(ErrorCode.INSTANT_SEED_INVALID, `${file}:${line}:${column}: ${message}`, { details: { file, line, column } });
}

/**
 * Splits `source` (BOM already stripped) into statements. Throws `PLATFORM_INSTANT_SEED_INVALID`
 * naming `file:line:col` for an unterminated quote or comment.
 */
export function splitStatements(source: string, file: string): SeedStatement[] {
  const statements: SeedStatement[] = [];
  let start = -1;
  let i = 0;
  const finish = (end: number): void => {
    if (start >= 0) {
      const text = source.slice(start, end).trimEnd();
      const { line, column } = lineAndColumn(source, start);
      statements.push({ text, offset: start, line, column });
    }
    start = -1;
  };
  while (i < source.length) {
    const ch = source[i] ?? "";
    const next = source[i + 1] ?? "";
    if (ch === "-" && next === "-") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end + 1;
      continue;
    }
    if (ch === "/" && next === "*") {
      const opened = i;
      let depth = 1;
      i += 2;
      while (depth > 0) {
        if (i >= source.length) throw invalid(file, source, opened, "unterminated /* comment");
        if (source[i] === "/" && source[i + 1] === "*") {
          depth++;
          i += 2;
        } else if (source[i] === "*" && source[i + 1] === "/") {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === ";") {
      finish(i);
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (ch === "'") {
      const prev = source[i - 1] ?? "";
      const escapes = (prev === "E" || prev === "e") && !IDENT_CHAR.test(source[i - 2] ?? "");
      i = skipQuoted(source, i, "'", escapes, () => invalid(file, source, i, "unterminated quoted string"));
      continue;
    }
    if (ch === '"') {
      i = skipQuoted(source, i, '"', false, () => invalid(file, source, i, "unterminated quoted identifier"));
      continue;
    }
    if (ch === "$" && !IDENT_CHAR.test(source[i - 1] ?? "")) {
      const tag = DOLLAR_TAG.exec(source.slice(i, i + 64))?.[0];
      if (tag !== undefined) {
        const end = source.indexOf(tag, i + tag.length);
        if (end < 0) throw invalid(file, source, i, `unterminated dollar-quoted string ${tag}`);
        i = end + tag.length;
        continue;
      }
    }
    i++;
  }
  finish(source.length);
  return statements;
}

function skipQuoted(source: string, open: number, quote: string, backslashEscapes: boolean, fail: () => PlatformError): number {
  let i = open + 1;
  for (;;) {
    if (i >= source.length) throw fail();
    const ch = source[i];
    if (backslashEscapes && ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (source[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
}

const TRANSACTION_CONTROL = /^(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT)\b/i;
const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+STDIN\b/i;

/**
 * Reads and checks a seed: BOM stripped, statements split, and psql
 * meta-commands, `COPY … FROM STDIN` and transaction control rejected with `file:line:col`.
 */
export function parseSeed(source: string, file: string): SeedStatement[] {
  const text = source.startsWith("\uFEFF") ? source.slice(1) : source;
  const statements = splitStatements(text, file);
  for (const statement of statements) {
    const at = (message: string): PlatformError => invalid(file, text, statement.offset, message);
    if (statement.text.startsWith("\\")) {
      throw at(`psql meta-commands such as ${statement.text.split(/\s/)[0] ?? "\\"} are not supported; the seed runs as plain SQL`);
    }
    const control = TRANSACTION_CONTROL.exec(statement.text)?.[1];
    if (control !== undefined) {
      throw at(`${control.toUpperCase().replace(/\s+/g, " ")} is not allowed: the file already runs in one transaction; remove the transaction control statements`);
    }
    if (COPY_FROM_STDIN.test(statement.text)) {
      throw at("COPY … FROM STDIN needs psql; use INSERT statements instead");
    }
  }
  return statements;
}
