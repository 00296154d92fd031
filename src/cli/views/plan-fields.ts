import type { Json } from "../../model/json.js";
import type { Change, ChangeClass } from "../../model/plan.js";

/** How a sensitive value is shown in every view. */
export const SENSITIVE = "(sensitive)";

/** How an absent value is shown in text and Markdown. */
export const ABSENT = "(none)";

/** The marker the engine writes in place of a secret. */
const REDACTED = "[redacted]";

/** Field names whose values are credentials, wherever they appear. */
const SENSITIVE_NAME =
  /(^|[._])(env|password|secret|token|api_?token|api_?key|s3_secret_access_key|secret_server_key|client_secret|connection_?(uri|string))([._]|$)/i;

/** One compared field of a change, secrets already replaced. */
export interface FieldDiff {
  /** Policy vocabulary, e.g. `suspendTimeout`, `env.NEW_FLAG`, `code`. */
  name: string;
  /** `null` = absent. */
  before: Json | null;
  /** `null` = absent. */
  after: Json | null;
  /** True when either side held a secret; both sides then read `"(sensitive)"` unless absent. */
  sensitive: boolean;
  /**
   * Only on an `env` field: the names on both sides, one or more of whose values may change.
   * The platform returns env names, never values, so which of them changed cannot be known.
   */
  names?: string[];
}

/** The CLI flags a change class needs on apply (the marks next to a change). */
export function flagsForClass(cls: ChangeClass): string[] {
  if (cls === "override") return ["--update-existing"];
  if (cls === "destructive") return ["--update-existing", "--allow-data-loss"];
  return [];
}

/** Plan symbol of an action. */
export function symbolFor(action: Change["action"]): string {
  switch (action) {
    case "create":
      return "+";
    case "update":
      return "~";
    case "delete":
      return "-";
    case "replace":
      return "-/+";
  }
}

function isRecord(value: Json | null | undefined): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads `path` (dotted) from a compared-fields object; `code` falls back to `codeTag`. */
function readField(obj: Json | null, path: string): Json | null {
  if (!isRecord(obj)) return null;
  if (path in obj) return obj[path] ?? null;
  const dot = path.indexOf(".");
  if (dot > 0) {
    const head = obj[path.slice(0, dot)];
    if (isRecord(head)) return readField(head, path.slice(dot + 1));
    return null;
  }
  const tagged = obj[`${path}Tag`];
  return tagged === undefined ? null : tagged;
}

function containsRedacted(value: Json | null): boolean {
  if (value === REDACTED) return true;
  if (Array.isArray(value)) return value.some(containsRedacted);
  if (isRecord(value)) return Object.values(value).some(containsRedacted);
  return false;
}

function mask(value: Json | null, sensitive: boolean): Json | null {
  if (value === null) return null;
  return sensitive ? SENSITIVE : value;
}

function diff(name: string, before: Json | null, after: Json | null): FieldDiff {
  const sensitive = SENSITIVE_NAME.test(name) || containsRedacted(before) || containsRedacted(after);
  return { name, before: mask(before, sensitive), after: mask(after, sensitive), sensitive };
}

/** Splits an `env` map into one field per key, so adding or removing a name stays visible. */
function expandEnv(prefix: string, before: Json | null, after: Json | null): FieldDiff[] {
  const keys = new Set<string>([
    ...(isRecord(before) ? Object.keys(before) : []),
    ...(isRecord(after) ? Object.keys(after) : []),
  ]);
  return [...keys]
    .sort()
    .map((key) => diff(`${prefix}.${key}`, readField(before, key), readField(after, key)));
}

/** Names present in both env maps, sorted. */
function keptNames(before: Json | null, after: Json | null): string[] {
  if (!isRecord(before) || !isRecord(after)) return [];
  return Object.keys(after).filter((name) => name in before).sort();
}

/**
 * The field lines of a change in policy vocabulary: one per entry of `fields`;
 * for a create, one per key of `after`; a delete lists none. Secrets never leave this function.
 */
export function changeFields(change: Change): FieldDiff[] {
  if (change.action === "delete") return [];
  const whole = change.fields.includes("*") || change.action === "create";
  const names = whole ? (isRecord(change.after) ? Object.keys(change.after) : []) : change.fields;
  const out: FieldDiff[] = [];
  for (const name of names) {
    const before = whole ? null : readField(change.before, name);
    const after = readField(change.after, name);
    // A whole-resource create lists each env name; an update's `env` field is a value change.
    if (whole && name === "env" && isRecord(after)) out.push(...expandEnv("env", before, after));
    else if (name === "env") out.push({ ...diff(name, before, after), names: keptNames(before, after) });
    // A create names the deployment's code `code`, as an update does (`code` reads `codeTag`).
    else out.push(diff(name === "codeTag" ? "code" : name, before, after));
  }
  return out;
}

/** Renders a value for text and Markdown: strings JSON-quoted, absent `(none)`, long JSON cut at 120. */
export function formatValue(value: Json | null): string {
  if (value === null) return ABSENT;
  if (value === SENSITIVE) return SENSITIVE;
  const text = JSON.stringify(value);
  if (typeof value === "object" && text.length > 120) return `${text.slice(0, 119)}…`;
  return text;
}

/**
 * One `name: before -> after` line. A value change known by name is `env.A: value changed
 * (sensitive)`; one the fingerprint cannot pin down names the candidates without values:
 * `env: a value may have changed in one or more of A, B (values redacted; …)`, or
 * `env: the value of A may have changed (…)` for one.
 */
export function formatFieldLine(field: FieldDiff): string {
  if (field.name.startsWith("env.") && field.before === SENSITIVE && field.after === SENSITIVE) return `${field.name}: value changed (sensitive)`;
  if (field.names !== undefined) {
    const [only, ...more] = field.names;
    const which =
      only === undefined ? "the env fingerprint differs" : more.length === 0 ? `the value of ${only} may have changed` : `a value may have changed in one or more of ${field.names.join(", ")}`;
    return `env: ${which} (values redacted; the platform keeps no values to compare)`;
  }
  return `${field.name}: ${formatValue(field.before)} -> ${formatValue(field.after)}`;
}

/**
 * The field line of a conflict: `field: current -> desired`, secrets masked; `field: desired` when
 * nothing is there now (the reason says what is wrong with it, not that it would be added).
 */
export function conflictFieldLine(conflict: { field: string; current: Json | null; desired: Json | null }): string {
  const sides = diff(conflict.field, conflict.current, conflict.desired);
  return sides.before === null && sides.after !== null ? `${sides.name}: ${formatValue(sides.after)}` : formatFieldLine(sides);
}

/** The same conflict sides as {@link conflictFieldLine}, masked for JSON. */
export function conflictSides(conflict: { field: string; current: Json | null; desired: Json | null }): {
  current: Json | null;
  desired: Json | null;
} {
  const d = diff(conflict.field, conflict.current, conflict.desired);
  return { current: d.before, desired: d.after };
}
