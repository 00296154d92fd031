/**
 * Branch logs. The emulator keeps no logs, so every read is an honest empty answer: a query
 * returns no records, the fields are the labels a query filters by, and each has no values. The
 * request is still checked as the platform checks it (the window, the filters, the field name),
 * so a client learns about a bad query here rather than in production.
 */
import { Hono, type Context } from "hono";
import { LogFieldValuesQuerySchema, LogQueryRequestSchema } from "../../api/wire/index.js";
import { RuleError } from "../engine/rule-error.js";
import type { EmulatorEnv } from "../http/env.js";
import { visibleBranch } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";

/** The log labels a query can filter by, each answering the field-values read. */
export const LOG_FIELDS: readonly string[] = Object.freeze(["source", "service_name", "scope_name", "severity_text"]);

/** The longest window a read may cover. */
const MAX_WINDOW_MS = 7 * 86_400_000;

/** Refuses a window the platform refuses, with its `reason`. */
function checkWindow(window: { since?: string | undefined; start_time?: string | undefined; end_time?: string | undefined }, now: number): void {
  const refuse = (reason: string, message: string): never => {
    throw new RuleError("invalid", message, { reason, field: reason === "conflicting_time_range" ? "since" : "start_time" });
  };
  if (window.since !== undefined && window.start_time !== undefined) refuse("conflicting_time_range", "give since or start_time, not both");
  const time = (value: string | undefined, field: string): number | undefined => {
    if (value === undefined) return undefined;
    const parsed = Date.parse(value);
    if (Number.isNaN(parsed)) throw new RuleError("invalid", `${field} ${JSON.stringify(value)} is not a timestamp; give an RFC 3339 time`, { field });
    return parsed;
  };
  const end = time(window.end_time, "end_time") ?? now;
  const start = time(window.start_time, "start_time");
  if (start !== undefined && end <= start) refuse("invalid_time_range", "end_time must be after start_time");
  const sinceMs = window.since === undefined ? undefined : durationMs(window.since);
  if ((start !== undefined && end - start > MAX_WINDOW_MS) || (sinceMs !== undefined && sinceMs > MAX_WINDOW_MS)) {
    refuse("time_range_too_large", "the window spans more than seven days; narrow it");
  }
}

/** A validated `since` (`30m`, `6h`, `7d`) in milliseconds. */
function durationMs(since: string): number {
  const [, count = "0", unit = "s"] = /^(\d+)(ms|s|m|h|d)$/.exec(since) ?? [];
  return Number(count) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as "ms" | "s" | "m" | "h" | "d"];
}

/** Routes of the branch log reads. */
export function logRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/logs";
  const branchOf = (c: Context<EmulatorEnv>): void => {
    visibleBranch(rt.world, c, c.req.param("project_id") ?? "", c.req.param("branch_id") ?? "");
  };

  r.post(`${base}/query`, async (c) => {
    const now = rt.world.now();
    branchOf(c);
    const query = await readJson(c, LogQueryRequestSchema, { optional: true });
    checkWindow(query, now);
    const filters = [query.source, query.service_name, query.scope_name, query.minimum_severity, query.severity_text, query.body_contains, query.trace_id];
    if (query.logql !== undefined && filters.some((v) => v !== undefined)) {
      throw new RuleError("invalid", "give logql or the structured filters, not both", { reason: "conflicting_filters", field: "logql" });
    }
    if (query.cursor !== undefined) throw new RuleError("invalid", "this cursor was not issued by a previous query (the emulator keeps no logs, so it issues none)", { reason: "invalid_cursor", field: "cursor" });
    return c.json({ logs: [], is_truncated: false });
  });

  r.get(`${base}/fields`, (c) => {
    rt.world.now();
    branchOf(c);
    return c.json({ fields: [...LOG_FIELDS] });
  });

  r.get(`${base}/fields/:field_name/values`, (c) => {
    const now = rt.world.now();
    branchOf(c);
    const field = c.req.param("field_name");
    if (!LOG_FIELDS.includes(field)) {
      throw new RuleError("invalid", `log field ${JSON.stringify(field)} is not one of ${LOG_FIELDS.join(", ")} (GET …/logs/fields lists them)`, { reason: "unknown_field", field: "field_name" });
    }
    checkWindow(readQuery(c, LogFieldValuesQuerySchema), now);
    return c.json({ values: [], is_truncated: false });
  });

  return r;
}
