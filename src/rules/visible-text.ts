/**
 * Characters that make text lie to the eye or break a line-based output: control characters,
 * zero-width characters, bidirectional overrides and lone surrogates. The policy refuses them in
 * names, the bundler and the emulator refuse control characters in archive entry names, and
 * every view and log escapes them when it prints text that came from outside (a file name, a
 * live resource's name, a request path), so `\u202e` shows as those six characters instead of
 * reversing the rest of the line. Leaf module: no imports.
 */

/** Why a character is unsafe to show or to use in a name. */
export type UnsafeCharacterKind = "control" | "line-separator" | "zero-width" | "bidi" | "lone-surrogate";

/** Human-readable explanation of each {@link UnsafeCharacterKind}. */
export const UNSAFE_CHARACTER_MESSAGES: Readonly<Record<UnsafeCharacterKind, string>> = Object.freeze({
  control: "a control character",
  "line-separator": "a line or paragraph separator (U+2028, U+2029: a line break in JavaScript source)",
  "zero-width": "a zero-width character",
  bidi: "a bidirectional-override character",
  "lone-surrogate": "an unpaired UTF-16 surrogate (not valid Unicode)",
});

/** Whether a code point is a C0 or C1 control character or DEL (tab and newline included). */
export function isControlCodePoint(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad]);
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

/** Classifies one code point; `null` when it is safe. */
export function unsafeCharacterKind(code: number): UnsafeCharacterKind | null {
  if (isControlCodePoint(code)) return "control";
  if (code === 0x2028 || code === 0x2029) return "line-separator";
  if (ZERO_WIDTH.has(code)) return "zero-width";
  if (BIDI.has(code)) return "bidi";
  if (code >= 0xd800 && code <= 0xdfff) return "lone-surrogate";
  return null;
}

/**
 * Every code unit that can be (part of) an unsafe character: a cheap first pass, since nearly all
 * text has none. Surrogates are listed whole; the exact walk tells paired ones from lone ones.
 */
const MAYBE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff]/;

/** The first unsafe character of `text` (its kind and `\uXXXX` form), or `null` when there is none. */
export function findUnsafeCharacter(text: string): { kind: UnsafeCharacterKind; escaped: string } | null {
  if (!MAYBE_UNSAFE.test(text)) return null;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const kind = unsafeCharacterKind(code);
    if (kind !== null) return { kind, escaped: escapeCodePoint(code) };
  }
  return null;
}

/**
 * A sentence for a name holding an unsafe character, e.g. "contains a bidirectional-override
 * character (\u202e)", or `null` when the name is safe.
 */
export function unsafeCharacterIssue(text: string): string | null {
  const found = findUnsafeCharacter(text);
  return found === null ? null : `contains ${UNSAFE_CHARACTER_MESSAGES[found.kind]} (${found.escaped})`;
}

/** A code point as `\uXXXX` (`\u{XXXXX}` beyond the BMP). */
export function escapeCodePoint(code: number): string {
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every unsafe character replaced by its `\uXXXX` escape; safe text is returned
 * unchanged. For printing anything that came from outside: it cannot start a new line, hide
 * characters or reorder the line it is printed in.
 */
export function escapeUnsafeText(text: string): string {
  if (!MAYBE_UNSAFE.test(text)) return text;
  let out = "";
  let changed = false;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (unsafeCharacterKind(code) === null) out += ch;
    else {
      out += escapeCodePoint(code);
      changed = true;
    }
  }
  return changed ? out : text;
}
