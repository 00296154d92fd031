/**
 * Wire shapes of branch logs (their payloads
 * follow the platform's published types). The client does not call these routes; the
 * emulator, which keeps no logs, validates queries with them and answers honestly empty.
 */
import { z } from "zod";
import { TimestampSchema } from "./common.js";

/** A length of time: a count and a unit (`30m`, `6h`, `7d`). */
export const LogDurationSchema = z.string().regex(/^[1-9][0-9]*(ms|s|m|h|d)$/, "must be a count and a unit: ms, s, m, h or d (e.g. 30m, 6h, 7d)");

/** The services that emit branch logs. */
export const LogSourceSchema = z.enum(["function", "storage", "pg_endpoint"]);

/** The time window of a log read: `since`, or `start_time`; `end_time` ends either. */
const LogWindowShape = {
  since: LogDurationSchema.optional(),
  start_time: TimestampSchema.optional(),
  end_time: TimestampSchema.optional(),
};

/** `POST …/logs/query` body. */
export const LogQueryRequestSchema = z.object({
  ...LogWindowShape,
  limit: z.number().int().min(1).max(1000).optional(),
  cursor: z.string().optional(),
  sort_order: z.enum(["asc", "desc"]).optional(),
  source: LogSourceSchema.optional(),
  service_name: z.string().optional(),
  scope_name: z.string().optional(),
  minimum_severity: z.enum(["trace", "debug", "info", "warn", "error", "fatal"]).optional(),
  severity_text: z.string().optional(),
  body_contains: z.string().optional(),
  trace_id: z.string().regex(/^[0-9a-f]{32}$/, "must be 32 lowercase hex digits").optional(),
  logql: z.string().min(1).optional(),
});
/** `POST …/logs/query` body. */
export type LogQueryRequest = z.infer<typeof LogQueryRequestSchema>;

/** `GET …/logs/fields/{field}/values` query. */
export const LogFieldValuesQuerySchema = z.object({
  ...LogWindowShape,
  source: LogSourceSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** `POST …/logs/query` response. */
export const LogQueryResponseSchema = z.looseObject({ logs: z.array(z.looseObject({ timestamp: TimestampSchema, message: z.string() })), is_truncated: z.boolean() });
/** `GET …/logs/fields` response. */
export const LogFieldsResponseSchema = z.looseObject({ fields: z.array(z.string()) });
/** `GET …/logs/fields/{field}/values` response. */
export const LogFieldValuesResponseSchema = z.looseObject({ values: z.array(z.string()), is_truncated: z.boolean() });
