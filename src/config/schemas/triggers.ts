/**
 * Schemas of `triggers` (policy.md §8). References to functions and buckets are checked across
 * sections by `cross-checks.ts`, so they are reported even when other sections are invalid.
 */
import * as z from "zod";
import { cronExpressionSchema } from "../../rules/cron.js";
import { nameIssue } from "../../rules/names.js";
import { check, nameKey, recordOf, strictObject } from "./common.js";

const utf8 = new TextEncoder();

const functionPathSchema = check(
  z.string(),
  (path) => path.startsWith("/") && path.length <= 2048 && !/\s/.test(path),
  () => 'must start with "/", have at most 2048 characters and contain no whitespace',
);

const prefixSchema = check(
  z.string(),
  (prefix) => {
    const bytes = utf8.encode(prefix).length;
    return bytes >= 1 && bytes <= 1024;
  },
  () => "must be 1 to 1024 UTF-8 bytes; omit it to match every object",
);

const common = {
  function: z.string(),
  functionPath: functionPathSchema.optional(),
  enabled: z.boolean().optional(),
};

/** A `schedule` trigger (strict). */
const scheduleTriggerSchema = strictObject({
  type: z.literal("schedule"),
  ...common,
  cron: cronExpressionSchema,
});

/** A `storage_object_created` trigger (strict). */
const storageTriggerSchema = strictObject({
  type: z.literal("storage_object_created"),
  ...common,
  bucket: z.string(),
  prefix: prefixSchema.optional(),
});

/** One `TriggerDef`, discriminated by `type`. */
export const triggerDefSchema = z.discriminatedUnion("type", [scheduleTriggerSchema, storageTriggerSchema]);

/** `triggers`: name → `TriggerDef`. */
export const triggersSchema = recordOf(nameKey("trigger", (name) => nameIssue(name, 255)), triggerDefSchema, "an object of trigger name → trigger definition");

