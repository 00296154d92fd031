/**
 * A refused option value as an error shows it. JSON would print `NaN`, `Infinity` and
 * `-Infinity` as `null`, which names a value the caller never passed (`Number(process.env.X)` of
 * an unset variable is `NaN`), and `details` must stay JSON-safe.
 */

/** The value in a message: a number as JavaScript prints it, anything else as its JSON (a string quoted), else its text. */
export function shownOptionValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** The value in `details`: a finite number or a string as it is, anything else as its text. */
export function optionDetailValue(value: unknown): string | number {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
  return String(value);
}
