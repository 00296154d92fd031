/**
 * Wire shapes of snapshots, backup schedules and branch restore (the
 * seed gives no payloads, so these follow the platform's published API; the client does not call
 * these routes, the emulator validates with them).
 */
import { z } from "zod";
import { TimestampSchema } from "./common.js";
import { BranchNameSchema } from "./branches.js";

/** An LSN as PostgreSQL writes it (`0/1A2B3C4`). */
export const LsnSchema = z.string().regex(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/, "must be an LSN such as 0/1A2B3C4");

/** `POST …/branches/{b}/snapshot`: every field optional, given as query parameters or in the body. */
export const SnapshotCreateRequestSchema = z.object({
  name: BranchNameSchema.optional(),
  lsn: LsnSchema.optional(),
  timestamp: TimestampSchema.optional(),
  expires_at: TimestampSchema.optional(),
});
/** `POST …/branches/{b}/snapshot` parameters. */
export type SnapshotCreateRequest = z.infer<typeof SnapshotCreateRequestSchema>;

/**
 * `PATCH …/snapshots/{id}` body: every field optional; `expires_at` a timestamp, or `null` to keep
 * the snapshot until it is deleted.
 */
export const SnapshotUpdateRequestSchema = z.object({ snapshot: z.object({ name: BranchNameSchema.optional(), expires_at: TimestampSchema.nullable().optional() }) });
/** `PATCH …/snapshots/{id}` body. */
export type SnapshotUpdateRequest = z.infer<typeof SnapshotUpdateRequestSchema>;

/** `POST …/snapshots/{id}/restore` body: a new branch from the snapshot, optionally finalized onto a target branch. */
export const SnapshotRestoreRequestSchema = z.object({
  name: BranchNameSchema.optional(),
  target_branch_id: z.string().min(1).optional(),
  finalize_restore: z.boolean().optional(),
});
/** `POST …/snapshots/{id}/restore` body. */
export type SnapshotRestoreRequest = z.infer<typeof SnapshotRestoreRequestSchema>;

/** A snapshot record. */
export const SnapshotSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source_branch_id: z.string().optional(),
  lsn: z.string().optional(),
  timestamp: TimestampSchema.optional(),
  created_at: TimestampSchema.optional(),
  expires_at: TimestampSchema.optional(),
  manual: z.boolean().optional(),
});
/** A snapshot. */
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** One entry of a branch's backup schedule. */
export const BackupScheduleItemSchema = z.object({
  frequency: z.enum(["hourly", "daily", "weekly", "monthly"]),
  hour: z.number().int().min(0).max(23).optional(),
  day: z.number().int().min(0).max(31).optional(),
  month: z.number().int().min(1).max(12).optional(),
  /** How long each backup is kept; omitted, backups are kept until deleted. */
  retention_seconds: z.number().int().min(0).optional(),
});
/** A backup schedule entry. */
export type BackupScheduleItem = z.infer<typeof BackupScheduleItemSchema>;

/** `PUT …/branches/{b}/backup_schedule` body and `GET` response. */
export const BackupScheduleSchema = z.object({ schedule: z.array(BackupScheduleItemSchema).max(10) });
/** A branch's backup schedule. */
export type BackupSchedule = z.infer<typeof BackupScheduleSchema>;

/** `POST …/branches/{b}/restore` body: restore from a source branch (itself for a point in time). */
export const BranchRestoreRequestSchema = z.object({
  source_branch_id: z.string().min(1),
  source_lsn: LsnSchema.optional(),
  source_timestamp: TimestampSchema.optional(),
  preserve_under_name: BranchNameSchema.optional(),
});
/** `POST …/branches/{b}/restore` body. */
export type BranchRestoreRequest = z.infer<typeof BranchRestoreRequestSchema>;

/** `POST …/branches/{b}/finalize_restore` body: the name the replaced branch keeps (optional, the body too). */
export const FinalizeRestoreRequestSchema = z.object({ name: BranchNameSchema.optional() });
/** `POST …/branches/{b}/finalize_restore` body. */
export type FinalizeRestoreRequest = z.infer<typeof FinalizeRestoreRequestSchema>;
