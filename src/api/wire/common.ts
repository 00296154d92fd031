/**
 * Wire shapes shared by every resource group: identifiers, timestamps, the error
 * body, pagination envelopes and the operation record. Response schemas are loose (unknown
 * fields kept, optional fields optional, enums as opaque strings); request schemas validate the
 * fields they know and strip the rest.
 */
import { z } from "zod";

/** Project, organization, branch and endpoint ids: `^[a-z0-9-]{1,60}$`. */
export const ResourceIdSchema = z.string().regex(/^[a-z0-9-]{1,60}$/, "must match ^[a-z0-9-]{1,60}$");

/** An RFC 3339 UTC timestamp with 0–6 fractional digits; kept as the string the server sent. */
export const TimestampSchema = z.string();

/** A query-string boolean (`true` / `false`), parsed to a boolean. */
export const QueryBooleanSchema = z.enum(["true", "false"]).transform((value) => value === "true");

/** A query-string integer within `[min, max]`, parsed to a number. */
export function queryIntegerSchema(min: number, max: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** One validation problem in an error body (emulator, 400/422). */
export const ErrorIssueSchema = z.looseObject({ path: z.string(), message: z.string() });
/** One validation problem in an error body. */
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/** The general error body: `code` and `message` required. */
export const ErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  request_id: z.string().optional(),
  reason: z.string().optional(),
  issues: z.array(ErrorIssueSchema).optional(),
});
/** The general error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Cursor-flavour pagination (projects, shared projects, operations): continue with `cursor`. */
export const CursorPaginationSchema = z.looseObject({ cursor: z.string().optional() });
/** Cursor-flavour pagination. */
export type CursorPagination = z.infer<typeof CursorPaginationSchema>;

/** Next-flavour pagination (branches, functions, domains, members): continue with `next`, else `cursor`. */
export const NextPaginationSchema = z.looseObject({
  next: z.string().optional(),
  cursor: z.string().optional(),
  sort_by: z.string().optional(),
  sort_order: z.string().optional(),
});
/** Next-flavour pagination. */
export type NextPagination = z.infer<typeof NextPaginationSchema>;

/** Operation statuses that are still in progress. */
export const OPERATION_IN_PROGRESS_STATUSES = ["scheduling", "running", "cancelling"] as const;
/** Operation statuses that ended successfully. */
export const OPERATION_SUCCESS_STATUSES = ["finished", "skipped"] as const;
/** Operation statuses that ended in failure. */
export const OPERATION_FAILURE_STATUSES = ["failed", "error", "cancelled"] as const;

/** An operation record; `action` and `status` are opaque strings. */
export const OperationSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  branch_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  action: z.string(),
  status: z.string(),
  error: z.string().optional(),
  failures_count: z.number().optional(),
  retry_at: TimestampSchema.optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  total_duration_ms: z.number().optional(),
});
/** An operation record. */
export type Operation = z.infer<typeof OperationSchema>;

/** `{operations}` as carried by every control-plane mutation response (possibly empty). */
export const OperationsFieldSchema = z.array(OperationSchema);

/** A string-to-string map (pg settings, annotations). */
export const StringMapSchema = z.record(z.string(), z.string());

/** Role and database names: 1–63 bytes. */
export const PgNameSchema = z
  .string()
  .min(1)
  .refine((name) => Buffer.byteLength(name, "utf8") <= 63, "must be at most 63 bytes");
