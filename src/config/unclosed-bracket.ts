/**
 * Where a bracket was probably left open in JavaScript or TypeScript source. A parser meets a
 * missing `}` only where the file ends (`svc.ts:39:1: Expected "}" but found ")"`), far from the
 * edit that lost it; the indentation of the lines tells where it was: a line that starts with a
 * closing bracket less indented than the line of the innermost open bracket closes an outer one,
 * so the inner one was never closed.
 *
 * A heuristic for an error message, pure and linear: it skips strings, template literals,
 * comments and regular expression literals, and gives up (`undefined`) on anything it cannot read.
 */

/** An opening bracket and its 1-based line and column. */
export interface OpenBracket {
  char: "{" | "[" | "(";
  line: number;
  column: number;
}

const CLOSER_OF: Record<string, string> = { "{": "}", "[": "]", "(": ")" };
/** After these characters a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^"]);

/** An open bracket on the scan's stack, with the indentation of the line it is on. */
interface Open extends OpenBracket {
  indent: number;
}

/** The open bracket a less indented closing line gives away, if it comes before line `beforeLine`. */
export function findUnclosedBracket(source: string, beforeLine: number): OpenBracket | undefined {
  const stack: (Open | "template")[] = [];
  let line = 1;
  let lineStart = 0;
  let lastSignificant = "";
  let i = 0;
  const indentAt = (start: number): number => {
    let n = 0;
    while (source[start + n] === " " || source[start + n] === "\t") n++;
    return n;
  };
  const skipUntil = (end: string): boolean => {
    const at = source.indexOf(end, i);
    if (at < 0) return false;
    for (let k = i; k < at; k++) if (source[k] === "\n") [line, lineStart] = [line + 1, k + 1];
    i = at + end.length;
    return true;
  };
  const skipQuoted = (quote: string): boolean => {
    for (i++; i < source.length; i++) {
      const c = source[i];
      if (c === "\\") i++;
      else if (c === quote) {
        i++;
        return true;
      }
      else if (c === "\n") return false;
    }
    return false;
  };
  /** Scans template text up to its end (true) or to a `${` (pushes a template marker). */
  const skipTemplate = (): boolean => {
    for (; i < source.length; i++) {
      const c = source[i];
      if (c === "\\") i++;
      else if (c === "\n") [line, lineStart] = [line + 1, i + 1];
      else if (c === "`") {
        i++;
        return true;
      }
      else if (c === "$" && source[i + 1] === "{") {
        stack.push("template");
        i += 2;
        return true;
      }
    }
    return false;
  };
  while (i < source.length && line < beforeLine) {
    const c = source[i] ?? "";
    if (c === "\n") {
      [line, lineStart] = [line + 1, i + 1];
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "/") {
      if (!skipUntil("\n")) return undefined;
      [line, lineStart] = [line + 1, i];
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      i += 2;
      if (!skipUntil("*/")) return undefined;
      continue;
    }
    if (c === '"' || c === "'" || (c === "/" && BEFORE_REGEX.has(lastSignificant))) {
      if (!skipQuoted(c)) return undefined;
      lastSignificant = "a";
      continue;
    }
    if (c === "`") {
      i++;
      if (!skipTemplate()) return undefined;
      lastSignificant = "a";
      continue;
    }
    if (c === "{" || c === "[" || c === "(") {
      stack.push({ char: c, line, column: i - lineStart + 1, indent: indentAt(lineStart) });
    } else if (c === "}" || c === "]" || c === ")") {
      const top = stack.pop();
      if (top === "template") {
        i++;
        if (!skipTemplate()) return undefined;
        lastSignificant = "a";
        continue;
      }
      if (top === undefined) return undefined;
      const startsLine = source.slice(lineStart, i).trim() === "";
      if (CLOSER_OF[top.char] !== c || (startsLine && indentAt(lineStart) < top.indent)) {
        return { char: top.char, line: top.line, column: top.column };
      }
    }
    lastSignificant = c;
    i++;
  }
  return undefined;
}
