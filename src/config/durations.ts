/**
 * Durations (docs/policy.md#durations): a positive whole number of seconds, or a string `<digits><unit>`
 * with unit s, m, h, d or w. Durations always compare as normalised seconds.
 */
import { ConfigValidationError } from "../errors/index.js";

/** Common duration spellings, offered by editors; any `<digits><unit>` string is accepted. */
export type DurationSuggestion =
  | "60s" | "5m" | "10m" | "15m" | "30m" | "1h" | "2h" | "6h" | "12h"
  | "1d" | "2d" | "3d" | "7d" | "14d" | "30d" | "1w" | "2w" | "4w";

/**
 * A duration: a positive whole number of seconds, or a string such as `"7d"` (units s, m, h, d,
 * w; case-insensitive). `"7d"`, `"1w"` and `604800` are the same duration.
 */
export type Duration = number | DurationSuggestion | (string & {});

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const FORMAT_UNITS: readonly (readonly [string, number])[] = [
  ["w", 604_800],
  ["d", 86_400],
  ["h", 3600],
  ["m", 60],
];
const DURATION_TEXT = /^(\d+)([smhdw])$/i;

/** Outcome of reading a duration: seconds, or why the value is not a duration. */
export type DurationCheck = { valid: true; seconds: number } | { valid: false; message: string };

/** Reads a duration without throwing; the building block of `parseDuration` and the schemas. */
export function checkDuration(value: unknown): DurationCheck {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value) && value > 0) return { valid: true, seconds: value };
    return { valid: false, message: `must be a positive whole number of seconds (got ${String(value)})` };
  }
  if (typeof value !== "string") {
    return { valid: false, message: `must be a number of seconds or a string like "7d" (got ${value === null ? "null" : typeof value})` };
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return { valid: false, message: `"${text}" has no unit: write "${text}d", "${text}h", …, or the number ${text} for seconds` };
  }
  const match = DURATION_TEXT.exec(text);
  const unit = match?.[2]?.toLowerCase();
  const factor = unit === undefined ? undefined : UNIT_SECONDS[unit];
  if (match === null || factor === undefined) {
    return { valid: false, message: `"${shorten(text)}" is not a duration; write a whole number with a unit s, m, h, d or w, e.g. "7d"` };
  }
  const seconds = Number(match[1]) * factor;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    return { valid: false, message: `"${shorten(text)}" must be a positive duration that is not absurdly large` };
  }
  return { valid: true, seconds };
}

/**
 * Converts a duration to seconds: `parseDuration("7d") === parseDuration("1w") === 604800`.
 * Throws `ConfigValidationError` (path `duration`) for zero, negative, fractional, unitless
 * strings and other text.
 */
export function parseDuration(value: Duration): number {
  const result = checkDuration(value);
  if (result.valid) return result.seconds;
  throw new ConfigValidationError([{ path: "duration", message: result.message }]);
}

/**
 * Formats seconds with the largest unit among w, d, h, m that divides them evenly, else in
 * seconds: `formatDuration(604800) === "1w"`, `formatDuration(90) === "90s"`. Throws
 * `ConfigValidationError` for anything but a positive whole number.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new ConfigValidationError([
      { path: "duration", message: `must be a positive whole number of seconds (got ${String(seconds)})` },
    ]);
  }
  for (const [unit, size] of FORMAT_UNITS) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** Human form of a bound, e.g. 3600 → "1 hour", 2592000 → "30 days", for range messages. */
export function describeSeconds(seconds: number): string {
  const units: readonly (readonly [string, number])[] = [["day", 86_400], ["hour", 3600], ["minute", 60]];
  for (const [name, size] of units) {
    if (seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} seconds`;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
