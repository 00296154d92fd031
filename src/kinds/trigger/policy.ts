/**
 * Schemas of `triggers`, their public key and the static policy stage. References to functions
 * and buckets (the policy's `functions` and `buckets`, either home) are checked on the raw policy,
 * so they are reported even when other sections are invalid.
 */
import * as z from "zod";
import { cronExpressionSchema } from "../../rules/cron.js";
import { nameIssue } from "../../rules/names.js";
import type { ConfigIssue } from "../../errors/index.js";
import { isRecord } from "../../config/cross-checks.js";
import { formatPath } from "../../config/issues.js";
import { check, nameKey, recordOf, strictObject } from "../../config/schemas/common.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import { sortedEntries } from "../../config/sort.js";
import type { ResolvedTrigger } from "./fields.js";
import { TRIGGER_DEFAULTS, TRIGGER_FIELDS, TRIGGER_TYPE_FIELDS, type TriggerType } from "./fields.js";
import type { Assert, DescribedPolicyValues, Flat, KeysOf, Parsed, Same } from "../../config/schemas/type-match.js";
import type { SCHEDULE_TRIGGER_FIELDS, STORAGE_TRIGGER_FIELDS } from "./fields.js";

interface TriggerCommon {
  /** Slug of a declared function. */
  function: string;
  /** Starts with `/`, at most 2048 characters, no whitespace. @default "/" */
  functionPath?: string;
  /** @default true */
  enabled?: boolean;
}

/** A trigger on a standard 5-field cron schedule, in UTC. */
export interface ScheduleTriggerDef extends TriggerCommon {
  type: "schedule";
  /** e.g. `"0 * * * *"`. */
  cron: string;
}

/** A trigger on objects created in a declared bucket. */
export interface StorageTriggerDef extends TriggerCommon {
  type: "storage_object_created";
  /** Name of a declared bucket. */
  bucket: string;
  /** 1–1024 UTF-8 bytes, case-sensitive; absent = every object. */
  prefix?: string;
}

/** A trigger (docs/policy.md#triggers). */
export type TriggerDef = ScheduleTriggerDef | StorageTriggerDef;

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

/**
 * The policy schema of each field of the trigger descriptor (`fields.ts`), by
 * policy key, with the messages the policy docs give: a descriptor field without a schema here, or a
 * schema for no field, fails to compile.
 */
const FIELD_SCHEMAS = {
  function: z.string(),
  functionPath: functionPathSchema.optional(),
  enabled: z.boolean().optional(),
  cron: cronExpressionSchema,
  bucket: z.string(),
  prefix: prefixSchema.optional(),
} satisfies Record<TriggerPolicyKey, z.ZodType>;

type TriggerPolicyKey = (typeof TRIGGER_FIELDS | (typeof TRIGGER_TYPE_FIELDS)[TriggerType])[number]["policyKey"];

/** The schemas of a trigger's fields, in descriptor order: the common ones, then the type's own. */
function fieldShape<const T extends TriggerType>(type: T) {
  const fields: readonly { policyKey: TriggerPolicyKey }[] = [...TRIGGER_FIELDS, ...TRIGGER_TYPE_FIELDS[type]];
  // The cast restates the keys the descriptor gives the type.
  return Object.fromEntries(fields.map((f) => [f.policyKey, FIELD_SCHEMAS[f.policyKey]])) as Pick<typeof FIELD_SCHEMAS, (typeof TRIGGER_FIELDS | (typeof TRIGGER_TYPE_FIELDS)[T])[number]["policyKey"]>;
}

/** A `schedule` trigger (strict). */
const scheduleTriggerSchema = strictObject({ type: z.literal("schedule"), ...fieldShape("schedule") });

/** A `storage_object_created` trigger (strict). */
const storageTriggerSchema = strictObject({ type: z.literal("storage_object_created"), ...fieldShape("storage_object_created") });

/** One `TriggerDef`, discriminated by `type`. */
export const triggerDefSchema = z.discriminatedUnion("type", [scheduleTriggerSchema, storageTriggerSchema]);

/** `triggers`: name → `TriggerDef`. */
export const triggersSchema = recordOf(nameKey("trigger", (name) => nameIssue(name, 255)), triggerDefSchema, "an object of trigger name → trigger definition");


/** The trigger kind's top-level key of the policy. */
export interface TriggerPolicyKeys {
  /** Keyed by trigger name. */
  triggers?: Record<string, TriggerDef>;
}

/** The triggers' field of the resolved policy. */
export interface TriggerResolvedFields {
  triggers: ResolvedTrigger[];
}

/** The trigger kind's static policy: `triggers`, `prune.triggers`, the resolved triggers. */
export const triggerPolicy = kindPolicy({
  order: 60,
  keys: { triggers: triggersSchema },
  prune: { flag: "triggers", order: 20 },
  resolve: ({ triggers }): TriggerResolvedFields => ({ triggers: resolveTriggers(triggers ?? {}) }),
  crossChecks: triggerReferenceIssues,
});

function resolveTriggers(triggers: z.output<typeof triggersSchema>): ResolvedTrigger[] {
  return sortedEntries(triggers).map(([name, trigger]): ResolvedTrigger => {
    const common = { name, function: trigger.function, functionPath: trigger.functionPath ?? TRIGGER_DEFAULTS.functionPath, enabled: trigger.enabled ?? TRIGGER_DEFAULTS.enabled };
    if (trigger.type === "schedule") return { ...common, type: "schedule", cron: trigger.cron };
    return {
      ...common,
      type: "storage_object_created",
      bucket: trigger.bucket,
      ...(trigger.prefix === undefined ? {} : { prefix: trigger.prefix }),
    };
  });
}

/** Trigger `function` and `bucket` must name declared functions and buckets (either home). */
function triggerReferenceIssues(policy: Readonly<Record<string, unknown>>): ConfigIssue[] {
  const triggers = policy.triggers;
  if (!isRecord(triggers)) return [];
  const preview = isRecord(policy.preview) ? policy.preview : {};
  const functions = declaredKeys(policy.functions, preview.functions);
  const buckets = declaredKeys(policy.buckets, preview.buckets);
  const functionSet = new Set(functions);
  const bucketSet = new Set(buckets);
  const issues: ConfigIssue[] = [];
  for (const [name, trigger] of Object.entries(triggers)) {
    if (!isRecord(trigger)) continue;
    const fn = trigger.function;
    if (typeof fn === "string" && !functionSet.has(fn)) {
      issues.push({
        path: formatPath(["triggers", name, "function"]),
        message: `function \`${fn}\` is not declared; declare it under \`functions\`${listOf(functions)}`,
      });
    }
    const bucket = trigger.bucket;
    if (trigger.type === "storage_object_created" && typeof bucket === "string" && !bucketSet.has(bucket)) {
      issues.push({
        path: formatPath(["triggers", name, "bucket"]),
        message: `bucket \`${bucket}\` is not declared; declare it under \`buckets\`${listOf(buckets)}`,
      });
    }
  }
  return issues;
}

function declaredKeys(...homes: unknown[]): string[] {
  return homes.flatMap((home) => (isRecord(home) ? Object.keys(home) : []));
}

function listOf(names: readonly string[]): string {
  if (names.length === 0) return " (none declared)";
  const shown = names.slice(0, 10).map((n) => JSON.stringify(n)).join(", ");
  return ` (declared: ${shown}${names.length > 10 ? ", …" : ""})`;
}

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<KeysOf<TriggerDef>, KeysOf<Parsed<typeof triggerDefSchema>>>>,
  Assert<Same<Flat<Required<Omit<ScheduleTriggerDef, "type">>>, Flat<DescribedPolicyValues<typeof TRIGGER_FIELDS> & DescribedPolicyValues<typeof SCHEDULE_TRIGGER_FIELDS>>>>,
  Assert<Same<Flat<Required<Omit<StorageTriggerDef, "type">>>, Flat<DescribedPolicyValues<typeof TRIGGER_FIELDS> & DescribedPolicyValues<typeof STORAGE_TRIGGER_FIELDS>>>>,
];
