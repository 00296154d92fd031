/**
 * Building blocks shared by the policy schemas: strict objects, `boolean | object` shorthands,
 * record-key rules and single-message refinements.
 */
import * as z from "zod";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { describeType, describeValue } from "../issues.js";

/** A rule with one message: `check(z.number(), isPort, (v) => "must be …")`. */
export function check<T extends z.ZodType>(
  base: T,
  predicate: (value: z.output<T>) => boolean,
  message: (value: z.output<T>) => string,
): T {
  return base.refine(predicate, { error: (issue) => message(issue.input as z.output<T>) });
}

/**
 * A strict object whose wrong-type message is `must be <what> (got …)`; unknown keys are
 * reported by the parse's error map with a "did you mean" suggestion.
 */
export function strictObject<S extends z.core.$ZodLooseShape>(shape: S, what = "an object") {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "invalid_type" ? typeMessage(what, issue.input) : undefined),
  });
}

/**
 * `true | false | object` with the booleans expanded into objects before validation, so
 * `dataApi: true` is `{}` and `prune: true` sets every field.
 */
export function booleanOrObject<T extends z.ZodType>(
  onTrue: () => Record<string, unknown>,
  onFalse: () => Record<string, unknown>,
  object: T,
) {
  return z.preprocess((value) => (value === true ? onTrue() : value === false ? onFalse() : value), object);
}

/** `true`, `{}` or `{ enabled: true }` = on; `false` or `{ enabled: false }` = off (docs/policy.md#auth). */
export type Toggle = boolean | { enabled?: boolean };

/** `{ enabled?: boolean }` with `true`/`false` shorthands. */
export const toggleSchema = booleanOrObject(
  () => ({ enabled: true }),
  () => ({ enabled: false }),
  strictObject({ enabled: z.boolean().optional() }, "true, false or { enabled: boolean }"),
);

/** The normalised form of a toggle. */
type ParsedToggle = z.output<typeof toggleSchema>;

/** Whether a parsed toggle is on (`true`, `{}`, `{ enabled: true }`). */
export function isOn(toggle: ParsedToggle | undefined): boolean {
  return toggle !== undefined && toggle.enabled !== false;
}

/** A record keyed by names that must satisfy `key` (its message names the key). */
export function recordOf<K extends z.ZodType<string>, V extends z.ZodType>(key: K, value: V, what: string) {
  return z.record(key, value, {
    error: (issue) => (issue.code === "invalid_type" ? typeMessage(what, issue.input) : undefined),
  });
}

/**
 * A record key checked by a shared name rule of `rules/names.ts` (`issueOf` returns what is
 * wrong, or `null`); the message names the key with unsafe characters escaped.
 */
export function nameKey(kind: string, issueOf: (name: string) => string | null) {
  return z.string().superRefine((name, ctx) => {
    const issue = issueOf(name);
    if (issue !== null) ctx.addIssue({ code: "custom", message: `${kind} name ${escapeUnsafeText(describeValue(name))} is invalid: it ${issue}` });
  });
}

/** A non-empty string (after trimming when `trim` is set) of at most `max` characters. */
export function boundedString(min: number, max: number, options: { trim?: boolean } = {}) {
  const length = (v: string): number => (options.trim === true ? v.trim().length : v.length);
  const range = min === max ? `${min}` : `${min} to ${max}`;
  return check(
    z.string(),
    (v) => length(v) >= min && length(v) <= max,
    () => (min >= 1 && max === Infinity ? "must not be empty" : `must be ${range} characters long${options.trim === true ? " (after trimming)" : ""}`),
  );
}

/** `must be <what> (got <type>)`, or `is required` for a missing value. */
function typeMessage(what: string, input: unknown): string {
  return input === undefined ? "is required" : `must be ${what} (got ${describeType(input)})`;
}
