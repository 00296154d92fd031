/**
 * The cron grammar both the engine and the emulator enforce: exactly five
 * numeric fields, schedules in UTC, compared after collapsing whitespace.
 */
import * as z from "zod";

/** Outcome of checking a cron expression: the normalised form, or what is wrong with it. */
export type CronCheck = { valid: true; normalized: string } | { valid: false; message: string };

interface CronField {
  name: string;
  min: number;
  max: number;
}

const FIELDS: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day-of-week", min: 0, max: 7 },
];

const ITEM = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/;

/** Collapses runs of whitespace to single spaces and trims: the form cron expressions compare in. */
export function normalizeCron(expression: string): string {
  return expression.trim().split(/\s+/).join(" ");
}

/**
 * Checks a standard 5-field cron expression. Names (`JAN`, `MON`), `?`, `L`, `W`, `#`, macros
 * (`@daily`) and 6- or 7-field forms are rejected; messages name the field, e.g.
 * "field 2 (hour): 24 is outside 0–23".
 */
export function checkCron(expression: string): CronCheck {
  const normalized = normalizeCron(expression);
  if (normalized === "") return invalid("is empty; write 5 fields, e.g. \"0 * * * *\"");
  if (normalized.startsWith("@")) {
    return invalid(`macros such as ${normalized.split(" ")[0]} are not supported; write the 5 fields, e.g. "0 0 * * *" for daily`);
  }
  const parts = normalized.split(" ");
  if (parts.length !== FIELDS.length) {
    return invalid(`must have exactly 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  }
  for (const [index, field] of FIELDS.entries()) {
    const problem = checkField(parts[index] ?? "", field);
    if (problem !== undefined) return invalid(`field ${index + 1} (${field.name}): ${problem}`);
  }
  return { valid: true, normalized };
}

function checkField(text: string, field: CronField): string | undefined {
  for (const item of text.split(",")) {
    const problem = checkItem(item, field);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkItem(item: string, field: CronField): string | undefined {
  if (item === "") return "empty list item (check the commas)";
  const match = ITEM.exec(item);
  if (match === null) return describeBadItem(item);
  const [, , lowText, highText, stepText] = match;
  if (stepText !== undefined) {
    const step = Number(stepText);
    if (step < 1 || step > field.max) return `step ${stepText} must be between 1 and ${field.max}`;
  }
  if (lowText === undefined) return undefined;
  const low = Number(lowText);
  const high = highText === undefined ? low : Number(highText);
  for (const value of [low, high]) {
    if (value < field.min || value > field.max) return `${value} is outside ${field.min}–${field.max}`;
  }
  if (low > high) return `range ${low}-${high} must go from low to high`;
  if (stepText !== undefined && highText === undefined) return `step needs "*" or a range before it, e.g. "*/${stepText}"`;
  return undefined;
}

function describeBadItem(item: string): string {
  if (/[a-z]/i.test(item)) {
    return `"${item}" is not supported: names (JAN, MON) and L, W are not accepted; use numbers`;
  }
  if (/[?#]/.test(item)) return `"${item}" is not supported: ? and # are not accepted; use *, numbers, ranges and steps`;
  return `"${item}" is not a valid item; use *, */s, n, a-b or a-b/s with decimal digits`;
}

function invalid(message: string): CronCheck {
  return { valid: false, message };
}

/** A zod schema for a cron expression; outputs the whitespace-collapsed form. */
export const cronExpressionSchema = z.string().transform((value, ctx) => {
  const result = checkCron(value);
  if (result.valid) return result.normalized;
  ctx.addIssue({ code: "custom", message: result.message });
  return z.NEVER;
});
