/**
 * `parseTriggerDelivery(request)`: reads a trigger invocation the platform (or the emulator, or
 * `svc dev --trigger`) sent to a function, checks it and returns it in camelCase. Runs inside
 * the user's function: no dependency beyond the shared envelope constants.
 */
import { TRIGGER_INVOCATION_HEADER } from "../rules/trigger-invocation.js";

/** Why a request is not a valid trigger delivery. */
export type TriggerDeliveryErrorCode = "TRIGGER_HEADER_MISSING" | "TRIGGER_ID_MISMATCH" | "TRIGGER_BODY_INVALID";

/**
 * A request that is not a valid trigger delivery. `code` says why; `status` is the HTTP status
 * to answer with (400). The message never quotes the body.
 */
export class TriggerDeliveryError extends Error {
  readonly code: TriggerDeliveryErrorCode;
  readonly status = 400;
  constructor(code: TriggerDeliveryErrorCode, message: string) {
    super(message);
    this.name = "TriggerDeliveryError";
    this.code = code;
  }
}

/** The trigger a delivery comes from. */
export interface DeliveredTrigger {
  /** `trigger-<uuid>`. */
  id: string;
  name: string;
}

interface DeliveryCommon {
  /** The envelope version (1). */
  version: 1;
  /** Unique per invocation; a retry repeats it, so handlers can deduplicate on it. */
  invocationId: string;
  trigger: DeliveredTrigger;
}

/** A schedule fired. */
export interface ScheduleDelivery extends DeliveryCommon {
  type: "schedule";
  /** The UTC minute the schedule fired for, e.g. `2026-11-26T10:00:00Z`. */
  data: { scheduledAt: string };
}

/** An object was created in a bucket (under the trigger's prefix). */
export interface StorageObjectCreatedDelivery extends DeliveryCommon {
  type: "storage_object_created";
  data: { bucketName: string; objectKey: string };
}

/** A parsed trigger delivery; narrow on `type`. */
export type TriggerDelivery = ScheduleDelivery | StorageObjectCreatedDelivery;

/** A delivery body is small; anything larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
const SCHEDULED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function invalid(message: string): TriggerDeliveryError {
  return new TriggerDeliveryError("TRIGGER_BODY_INVALID", `not a trigger delivery: ${message}`);
}

async function readCapped(request: Request): Promise<string> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw invalid(`the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

function field(record: Record<string, unknown>, key: string, where: string): string {
  const value = Object.hasOwn(record, key) ? record[key] : undefined;
  if (typeof value !== "string" || value === "") throw invalid(`${where}${key} must be a non-empty string`);
  return value;
}

function objectAt(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = Object.hasOwn(record, key) ? record[key] : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid(`${key} must be an object`);
  return value as Record<string, unknown>;
}

/**
 * Reads and checks a trigger delivery: the `x-svc-trigger-invocation-id` header, then the JSON
 * body (`version` 1, `invocation_id` equal to the header, `trigger` `{type, id, name}`, and
 * `data` for its type), and returns it in camelCase. Consumes the body (pass `request.clone()`
 * to read it again). Unknown extra fields are ignored.
 *
 * @throws TriggerDeliveryError `TRIGGER_HEADER_MISSING` (an ordinary request, not a trigger),
 * `TRIGGER_ID_MISMATCH` (header and body disagree), `TRIGGER_BODY_INVALID` (not JSON, too large,
 * or a field missing or of the wrong type).
 */
export async function parseTriggerDelivery(request: Request): Promise<TriggerDelivery> {
  const header = request.headers.get(TRIGGER_INVOCATION_HEADER);
  if (header === null || header.trim() === "") {
    throw new TriggerDeliveryError("TRIGGER_HEADER_MISSING", `not a trigger delivery: the ${TRIGGER_INVOCATION_HEADER} header is missing`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readCapped(request));
  } catch (err) {
    if (err instanceof TriggerDeliveryError) throw err;
    throw invalid("the body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalid("the body must be a JSON object");
  const body = parsed as Record<string, unknown>;
  if (body.version !== 1) throw invalid(`version must be 1 (got ${JSON.stringify(body.version) ?? "nothing"})`);
  const invocationId = field(body, "invocation_id", "");
  if (invocationId !== header.trim()) {
    throw new TriggerDeliveryError("TRIGGER_ID_MISMATCH", `the ${TRIGGER_INVOCATION_HEADER} header and the body's invocation_id differ`);
  }
  const trigger = objectAt(body, "trigger");
  const type = trigger.type;
  const source: DeliveredTrigger = { id: field(trigger, "id", "trigger."), name: field(trigger, "name", "trigger.") };
  const data = objectAt(body, "data");
  if (type === "schedule") {
    const scheduledAt = field(data, "scheduled_at", "data.");
    if (!SCHEDULED_AT.test(scheduledAt)) throw invalid("data.scheduled_at must be a UTC time like 2026-11-26T10:00:00Z");
    return { type, version: 1, invocationId, trigger: source, data: { scheduledAt } };
  }
  if (type === "storage_object_created") {
    return { type, version: 1, invocationId, trigger: source, data: { bucketName: field(data, "bucket_name", "data."), objectKey: field(data, "object_key", "data.") } };
  }
  throw invalid(`trigger.type must be "schedule" or "storage_object_created" (got ${JSON.stringify(type) ?? "nothing"})`);
}

/** Whether `err` is a {@link TriggerDeliveryError}, optionally with the given code. */
export function isTriggerDeliveryError(err: unknown, code?: TriggerDeliveryErrorCode): err is TriggerDeliveryError {
  return err instanceof TriggerDeliveryError && (code === undefined || err.code === code);
}
