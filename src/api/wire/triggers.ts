/** Wire shapes of triggers. */
import { z } from "zod";
import { TimestampSchema } from "./common.js";
import { FunctionSlugSchema } from "./functions.js";

/** A numeric five-field cron expression (UTC); the full grammar is checked by the shared cron rule. */
export const CronFieldsSchema = z
  .string()
  .trim()
  .refine((cron) => cron.split(/\s+/).length === 5, "must have 5 fields");

const TriggerCommonSchema = z.object({
  function_slug: FunctionSlugSchema,
  name: z.string().min(1).max(255),
  function_path: z.string().startsWith("/").optional(),
  enabled: z.boolean().optional(),
});

const ScheduleSchema = z.object({ cron: CronFieldsSchema });
const StorageObjectCreatedSchema = z.object({
  bucket_name: z.string().min(1),
  prefix: z
    .string()
    .refine((p) => Buffer.byteLength(p, "utf8") <= 1024, "must be at most 1024 bytes")
    .optional(),
});

/** `POST …/triggers` body: a schedule or a storage trigger. */
export const TriggerCreateRequestSchema = z.discriminatedUnion("type", [
  TriggerCommonSchema.extend({ type: z.literal("schedule"), schedule: ScheduleSchema }),
  TriggerCommonSchema.extend({ type: z.literal("storage_object_created"), storage_object_created: StorageObjectCreatedSchema }),
]);
/** `POST …/triggers` body. */
export type TriggerCreateRequest = z.infer<typeof TriggerCreateRequestSchema>;

/** `PATCH …/triggers/{id}` body: `type` required (must match), the rest optional. */
export const TriggerUpdateRequestSchema = z.object({
  type: z.enum(["schedule", "storage_object_created"]),
  function_slug: FunctionSlugSchema.optional(),
  name: z.string().min(1).max(255).optional(),
  function_path: z.string().startsWith("/").optional(),
  enabled: z.boolean().optional(),
  schedule: ScheduleSchema.optional(),
  storage_object_created: StorageObjectCreatedSchema.optional(),
});
/** `PATCH …/triggers/{id}` body. */
export type TriggerUpdateRequest = z.infer<typeof TriggerUpdateRequestSchema>;

/** The trigger record; a match-all storage trigger omits `prefix`. */
export const TriggerSchema = z.looseObject({
  type: z.string(),
  trigger_id: z.string(),
  function_slug: z.string(),
  name: z.string(),
  function_path: z.string().optional(),
  enabled: z.boolean(),
  version: z.number().optional(),
  inherited: z.boolean().optional(),
  schedule: z.looseObject({ cron: z.string() }).optional(),
  next_run_at: TimestampSchema.nullable().optional(),
  storage_object_created: z.looseObject({ bucket_name: z.string(), prefix: z.string().optional() }).optional(),
});
/** The trigger record. */
export type Trigger = z.infer<typeof TriggerSchema>;

/** `GET …/triggers` response, ordered by `trigger_id`. */
export const TriggerListResponseSchema = z.looseObject({ triggers: z.array(TriggerSchema) });
/** `GET …/triggers` response. */
export type TriggerListResponse = z.infer<typeof TriggerListResponseSchema>;

/** `{trigger}` response. */
export const TriggerResponseSchema = z.looseObject({ trigger: TriggerSchema });
/** `{trigger}` response. */
export type TriggerResponse = z.infer<typeof TriggerResponseSchema>;
