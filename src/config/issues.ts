/**
 * Turns zod issues into `ConfigIssue`s: the policy path syntax (`a.b[0]["c.d"]`), messages a policy author can
 * act on, one issue per unknown key with a "did you mean" suggestion. Messages never quote
 * values that may be secret (env values are checked by their own schema, by type only).
 */
import type * as z from "zod";
import type { ConfigIssue } from "../errors/index.js";
import { didYouMean } from "../rules/close-names.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;

const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/**
 * Formats a path: keys joined with `.`, array indexes as `[i]`, keys with characters outside
 * `[A-Za-z0-9_$-]` as `["key"]`, e.g. `buckets["my.bucket"].access`; characters that could hide
 * or reorder text are escaped (`["a\u202eb"]`).
 */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = String(segment);
      if (PLAIN_KEY.test(key)) out += out === "" ? key : `.${key}`;
      else out += `[${escapeUnsafeText(JSON.stringify(key))}]`;
    }
  }
  return out;
}

/** The message for an unknown key, with a suggestion when a known key is one edit away. */
function unknownKeyMessage(key: string, known: readonly string[]): string {
  return `${JSON.stringify(key)} is not a known key here${didYouMean(key, known)}`;
}

/** The message of a thrown value, for wrapping it. */
export function messageOf(err: unknown): string {
  try {
    if (err instanceof Error) return String(err.message);
    if (typeof err === "object" && err !== null && "message" in err && typeof err.message === "string") return err.message;
    return String(err);
  } catch {
    // A thrown Proxy or an object whose toString throws.
    return "an error that could not be read";
  }
}

/** A short description of a value's type for messages: never the value itself. */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  return `a ${typeof value}`;
}

/** A value for messages: short strings, numbers and booleans as written, anything else by type. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return value.length <= 64 ? JSON.stringify(value) : "a long string";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return describeType(value);
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
  function: "a function",
};

/**
 * The fallback error map for a parse: readable messages for issues whose schema did not set
 * one. For unknown keys it returns one line per key; `issuesFromZod` splits them.
 */
export const policyErrorMap: z.core.$ZodErrorMap = (issue: RawIssue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${EXPECTED[issue.expected] ?? issue.expected} (got ${describeType(issue.input)})`;
    case "invalid_value":
      return `must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")} (got ${describeValue(issue.input)})`;
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKeyMessage(key, knownKeysOf(issue.inst))).join("\n");
    case "too_small":
      return `must be at least ${String(issue.minimum)}${unitOf(issue.origin)}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}${unitOf(issue.origin)}`;
    default:
      return undefined;
  }
};

/** Converts a failed parse's issues, prefixing each path with `prefix` segments. */
export function issuesFromZod(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const segments = [...prefix, ...issue.path];
    const path = formatPath(segments);
    if (issue.code === "unrecognized_keys") {
      for (const line of issue.message.split("\n")) out.push({ path, message: line });
    } else if (issue.code === "invalid_key" || issue.code === "invalid_element") {
      out.push(...issuesFromZod(issue.issues, segments));
    } else if (issue.code === "invalid_union") {
      out.push(...unionIssues(issue, segments));
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

function unionIssues(issue: Extract<Issue, { code: "invalid_union" }>, segments: readonly PropertyKey[]): ConfigIssue[] {
  if (issue.errors.length === 0) {
    const options = "options" in issue && Array.isArray(issue.options) ? issue.options : [];
    const allowed = options.map((o: unknown) => JSON.stringify(o)).join(" or ");
    return [{ path: formatPath(segments), message: allowed === "" ? issue.message : `must be ${allowed}` }];
  }
  // Prefer the option whose type matched: its issues are the ones that explain the problem.
  const matched = issue.errors.find((option) => !option.some((i) => i.path.length === 0 && i.code === "invalid_type"));
  if (matched !== undefined) return issuesFromZod(matched, segments);
  return [{ path: formatPath(segments), message: issue.message }];
}

/** The keys an object schema declares; zod hands the failing schema to the error map as `inst`. */
function knownKeysOf(inst: unknown): string[] {
  if (typeof inst !== "object" || inst === null || !("_zod" in inst)) return [];
  const def = (inst as { _zod: { def: { shape?: unknown } } })._zod.def;
  return typeof def.shape === "object" && def.shape !== null ? Object.keys(def.shape) : [];
}

function unitOf(origin: string): string {
  if (origin === "string") return " characters long";
  if (origin === "array" || origin === "set") return " items";
  return "";
}

