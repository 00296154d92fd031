/**
 * Body and query validation with the shared wire schemas: known fields
 * are validated (400 with `issues`), unknown ones are stripped. Handlers call these after the
 * visibility checks, so a missing project answers 404 before a bad body answers 400.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { unsafeCharacterIssue } from "../../rules/visible-text.js";
import { badRequest } from "./errors.js";
import type { EmulatorEnv } from "./env.js";

/** zod issues -> error-body issues (`path` like `endpoints.0.type`). */
export function toIssues(error: z.ZodError, prefix = ""): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter((s) => s !== "").join("."),
    message: issue.message,
  }));
}

function describe(issues: { path: string; message: string }[], what: string): string {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? "s" : ""})` : "";
  return first ? `invalid ${what}: ${first.path || "(root)"}: ${first.message}${more}` : `invalid ${what}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function joinPath(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

/** Paths of fields present in `raw` but stripped from `parsed` (unknown fields), in the order of `raw`. */
export function strippedPaths(raw: unknown, parsed: unknown, prefix = ""): string[] {
  const out: string[] = [];
  collectStripped(raw, parsed, prefix, out);
  return out;
}

// Walks without building a list per level: most bodies have nothing to report.
function collectStripped(raw: unknown, parsed: unknown, prefix: string, out: string[]): void {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    raw.forEach((item, i) => {
      collectStripped(item, parsed[i], joinPath(prefix, String(i)), out);
    });
    return;
  }
  if (!isPlainObject(raw) || !isPlainObject(parsed)) return;
  for (const key of Object.keys(raw)) {
    if (key in parsed) collectStripped(raw[key], parsed[key], joinPath(prefix, key), out);
    else out.push(joinPath(prefix, key));
  }
}

/** Body fields that name something: `name`, `slug`, `domain` and every `…_name` / `…_slug`. */
const NAME_FIELD = /^(?:name|slug|domain)$|_(?:name|slug)$/;

/**
 * Names holding a control, zero-width or bidirectional character, anywhere in a request body:
 * the platform's names are shown in consoles, plans and env files, where such a character forges
 * a line or reads as another name, so every name is refused as the policy validation refuses it.
 */
export function unsafeNameIssues(value: unknown, prefix = ""): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  collectUnsafeNames(value, prefix, out);
  return out;
}

function collectUnsafeNames(value: unknown, prefix: string, out: { path: string; message: string }[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collectUnsafeNames(item, joinPath(prefix, String(i)), out);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const issue = typeof item === "string" && NAME_FIELD.test(key) ? unsafeCharacterIssue(item) : null;
    if (issue === null) collectUnsafeNames(item, joinPath(prefix, key), out);
    else out.push({ path: joinPath(prefix, key), message: `the name ${issue}` });
  }
}

function noteIgnored(c: Context<EmulatorEnv>, paths: string[]): void {
  if (paths.length > 0) c.set("ignored", [...(c.get("ignored") ?? []), ...paths]);
}

/**
 * Parses and validates the JSON body. An empty body counts as `{}` when `optional` (body-less
 * POSTs and optional bodies), else 400. Every name in it must be free of control, zero-width and
 * bidirectional characters (400 naming the field), unless `anyNames`: a seed document stands for
 * a platform's state, which can hold such names.
 */
export async function readJson<S extends z.ZodType>(c: Context<EmulatorEnv>, schema: S, options: { optional?: boolean; anyNames?: boolean } = {}): Promise<z.output<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw badRequest(`the request body is not valid JSON (${(err as Error).message}); send a JSON object with Content-Type: application/json`);
    }
  } else if (options.optional !== true) {
    throw badRequest("a JSON request body is required for this route");
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw badRequest(describe(issues, "request body"), issues);
  }
  const names = options.anyNames === true ? [] : unsafeNameIssues(result.data);
  if (names.length > 0) throw badRequest(describe(names, "request body"), names);
  noteIgnored(c, strippedPaths(raw, result.data));
  return result.data;
}

/** Validates the query string (`?a=1&b=2`; repeated names keep the first value). */
export function readQuery<S extends z.ZodType>(c: Context<EmulatorEnv>, schema: S): z.output<S> {
  const raw = c.req.query();
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw badRequest(describe(issues, "query parameter"), issues);
  }
  noteIgnored(c, strippedPaths(raw, result.data).map((p) => `?${p}`));
  return result.data;
}
