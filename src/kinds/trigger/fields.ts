/**
 * The trigger resource kind (docs/policy.md#triggers): the one place that names each field of a
 * trigger in policy, model and wire vocabulary. Fields every trigger has sit at the top of the
 * wire record; a type's own fields sit under the type's key (`schedule: { cron }`,
 * `storage_object_created: { bucket_name, prefix }`). The policy schema's keys, the inspector,
 * the diff, the handler's request bodies and the pull all read it. Changing a declared trigger
 * is additive. Plain data, no I/O.
 */
import { type FieldDescriptor, type ModelValues, defineField, fromWire, toWire } from "../../model/kinds/field.js";

/** The fields of every trigger, in the order plans, pulls and requests list them. */
/** One trigger of the resolved policy. */
export type ResolvedTrigger =
  | {
      name: string;
      type: "schedule";
      function: string;
      /** Whitespace collapsed to single spaces. */
      cron: string;
      functionPath: string;
      enabled: boolean;
    }
  | {
      name: string;
      type: "storage_object_created";
      function: string;
      bucket: string;
      prefix?: string;
      functionPath: string;
      enabled: boolean;
    };

export const TRIGGER_FIELDS = [
  defineField("function", "function_slug", { type: "string" }, "additive"),
  defineField("functionPath", "function_path", { type: "string" }, "additive"),
  defineField("enabled", "enabled", { type: "boolean" }, "additive"),
] as const;

/** A schedule trigger's own fields (wire: under `schedule`). */
export const SCHEDULE_TRIGGER_FIELDS = [defineField("cron", "cron", { type: "string" }, "additive")] as const;

/** A storage trigger's own fields (wire: under `storage_object_created`); no `prefix` matches every object. */
export const STORAGE_TRIGGER_FIELDS = [
  defineField("bucket", "bucket_name", { type: "string" }, "additive"),
  defineField("prefix", "prefix", { type: "string" }, "additive"),
] as const;

/** Each trigger type's own fields; the type is also the wire key they are nested under. */
export const TRIGGER_TYPE_FIELDS = {
  schedule: SCHEDULE_TRIGGER_FIELDS,
  storage_object_created: STORAGE_TRIGGER_FIELDS,
} as const satisfies Record<string, readonly FieldDescriptor[]>;

/** A trigger type the policy can declare. */
export type TriggerType = keyof typeof TRIGGER_TYPE_FIELDS;

/** What an omitted optional field resolves to. */
export const TRIGGER_DEFAULTS = { functionPath: "/", enabled: true } as const satisfies Partial<ModelValues<typeof TRIGGER_FIELDS>>;

/** Whether `type` is a trigger type the policy can declare. */
export function isTriggerType(type: string): type is TriggerType {
  return Object.hasOwn(TRIGGER_TYPE_FIELDS, type);
}

/** Every field of a trigger of `type`: the common ones, then the type's own (none for an unknown type). */
export function triggerFields(type: string): readonly FieldDescriptor[] {
  return isTriggerType(type) ? [...TRIGGER_FIELDS, ...TRIGGER_TYPE_FIELDS[type]] : TRIGGER_FIELDS;
}

/** Wire record → model fields of a trigger (values breaking their rule ignored). */
export function triggerFromWire(record: Readonly<Record<string, unknown>>, type: string): Record<string, unknown> {
  const nested = isTriggerType(type) ? record[type] : undefined;
  const own = isTriggerType(type) && typeof nested === "object" && nested !== null ? fromWire(TRIGGER_TYPE_FIELDS[type], nested as Record<string, unknown>) : {};
  return { ...fromWire(TRIGGER_FIELDS, record), ...own };
}

/**
 * A planned trigger → the wire part of a request body: the common fields in `only` (policy keys;
 * default: all) at the top, and all of the type's own fields under its key when any of them is in
 * `only`. An absent field (a storage trigger without `prefix`) is left out.
 */
export function triggerToWire(trigger: ResolvedTrigger, only?: readonly string[]): Record<string, unknown> {
  const wanted = (field: FieldDescriptor) => only === undefined || only.includes(field.policyKey);
  const body = toWire(TRIGGER_FIELDS.filter(wanted), trigger);
  const own = TRIGGER_TYPE_FIELDS[trigger.type];
  if (own.some(wanted)) body[trigger.type] = toWire(own, trigger);
  return body;
}

/** The operations on trigger `op.name`: `planned`, the declared trigger (its type and every field). */
export interface TriggerOperations {
  "trigger-create": { op: { name: string }; planned: ResolvedTrigger };
  /** `id`: the platform's; `fields`: the changed fields, sent with `type` and `enabled`. */
  "trigger-update": { op: { name: string; id: string; fields: string[] }; planned: ResolvedTrigger };
  "trigger-delete": { op: { name: string; id: string }; planned: Record<never, never> };
}

/** A trigger on the branch; `inherited` ones come from the parent branch. */
export interface LiveTrigger {
  id: string;
  name: string;
  type: string;
  function: string;
  functionPath: string;
  enabled: boolean;
  inherited: boolean;
  cron?: string;
  bucket?: string;
  prefix?: string;
}

/** The trigger kind's field of the live state (`LiveState`). */
export interface TriggerLiveFields {
  triggers?: LiveTrigger[];
}
