/**
 * Text from outside is data, never layout. A live resource's name, a file name, a git branch
 * name or a platform message can hold line breaks, carriage returns, ANSI escape sequences,
 * bidirectional overrides and zero-width characters; printed raw, they forge plan lines, erase
 * earlier output or reorder what a reviewer reads. Every view ends in {@link printedLines} (or
 * escapes a single value with {@link shown}), and every stream the CLI writes to applies
 * {@link escapeForStream} as the last line of defence, so such characters appear as `\uXXXX`.
 * JSON documents need none of this: `JSON.stringify` already escapes control characters, and
 * the `\uXXXX` form the streams give the other unsafe characters is JSON's own escape.
 */
import { escapeCodePoint, escapeUnsafeText, unsafeCharacterKind } from "../../rules/visible-text.js";

/**
 * One outside string as every view shows it: control characters (line break, carriage return,
 * tab, ESC, DEL, C1), bidirectional and zero-width characters and unpaired surrogates become
 * `\uXXXX`; anything else is unchanged. The result cannot start a line, move the cursor, change
 * colours or reorder the line it is printed in.
 */
export function shown(text: string): string {
  return escapeUnsafeText(text);
}

/** The colour sequences the CLI's own styles write (`COLOR_STYLE`): the only escapes printed raw. */
const OWN_COLOUR = /^\u001b\[(?:1|2|22|31|32|33|35|39)m/;

/** Escapes every unsafe character of `text` except the CLI's own colours and, when asked, `\n`. */
function escapeKeeping(text: string, keepNewline: boolean): string {
  let out = "";
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    if (code === 0x1b) {
      const colour = OWN_COLOUR.exec(text.slice(i, i + 6));
      if (colour !== null) {
        out += colour[0];
        i += colour[0].length;
        continue;
      }
    }
    if ((keepNewline && code === 0x0a) || unsafeCharacterKind(code) === null) out += text.slice(i, i + width);
    else {
      out += escapeCodePoint(code);
      changed = true;
    }
    i += width;
  }
  return changed ? out : text;
}

declare const PRINTED: unique symbol;

/**
 * Text a view made ready for a stream: only {@link printedLines} and {@link printedDocument}
 * make it, and the context's `out`, `err` and `info` take nothing else (or lines), so printing
 * a template string with a raw outside value in it does not compile.
 */
export type Printed = string & { readonly [PRINTED]: true };

/**
 * The edge of every view: each entry of `lines` is printed as exactly one line (whatever its
 * values hold, nothing inside it can start another line or move the cursor; the view's own
 * colours stay), joined with `\n` and ended with one.
 */
export function printedLines(lines: readonly string[]): Printed {
  return `${lines.map((line) => escapeKeeping(line, false)).join("\n")}\n` as Printed;
}

/**
 * A document whose format already encodes every outside value in it: a JSON document
 * (`JSON.stringify` escapes control characters) or source text the CLI generated with quoted
 * strings (the pulled policy). Printed as is; the stream rule still applies.
 */
export function printedDocument(text: string): Printed {
  return text as Printed;
}

/**
 * The stream rule, applied to everything the CLI writes to stdout and stderr: every unsafe
 * character is escaped except `\n` (the views' own line breaks) and the CLI's own colour
 * sequences, so a cursor move, an erase, a carriage return or a bidi override that a view let
 * through is still shown as text.
 */
export function escapeForStream(text: string): string {
  return escapeKeeping(text, true);
}

/** A terminal control sequence the CLI writes itself (cursor moves and erases of the live progress list). */
const CONTROL_SEQUENCE = /^(?:\u001b\[[0-9;]*[A-Za-z])+$/;

/** Whether `text` is only CSI control sequences, as the live progress list writes between frames. */
export function isControlSequence(text: string): boolean {
  return CONTROL_SEQUENCE.test(text);
}
