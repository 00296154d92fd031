/**
 * The platform's trigger invocation: `POST` to the function's URL plus the trigger's
 * `functionPath`, `content-type: application/json`, the header `x-svc-trigger-invocation-id`
 * equal to the body's `invocation_id`, and the body built here. Shared by the emulator (which
 * fires triggers) and `svc dev --trigger` (which sends one to a local function), so both send
 * the same bytes; `svc-config/functions` parses it on the function's side. Leaf module: no imports.
 */

/** The header that carries the invocation id. */
export const TRIGGER_INVOCATION_HEADER = "x-svc-trigger-invocation-id";

/** The envelope's version. */
export const TRIGGER_INVOCATION_VERSION = 1;

/** The trigger an invocation comes from. */
export interface TriggerInvocationSource {
  type: "schedule" | "storage_object_created";
  /** `trigger-<uuid>`. */
  id: string;
  name: string;
}

/** What happened: the UTC minute a schedule fired for, or the object created. */
export type TriggerInvocationData = { scheduled_at: string } | { bucket_name: string; object_key: string };

/** The invocation body, in the platform's wire form. */
export interface TriggerInvocationBody {
  version: 1;
  invocation_id: string;
  trigger: TriggerInvocationSource;
  data: TriggerInvocationData;
}

/** A ready-to-send invocation: where, which headers, which body. */
export interface TriggerInvocationRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** `2026-11-26T10:00:00Z`: the UTC minute of `at`, seconds zeroed, no milliseconds. */
export function scheduledAtMinute(at: Date): string {
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  return `${minute.toISOString().slice(0, 16)}:00Z`;
}

/**
 * The request of one invocation: the function's base URL joined with `functionPath` (which
 * starts with `/`; a trailing `/` of the base is dropped), the JSON content type, the id header
 * and the body.
 */
export function triggerInvocationRequest(options: { functionUrl: string; functionPath: string; invocationId: string; trigger: TriggerInvocationSource; data: TriggerInvocationData }): TriggerInvocationRequest {
  const body: TriggerInvocationBody = {
    version: TRIGGER_INVOCATION_VERSION,
    invocation_id: options.invocationId,
    trigger: { type: options.trigger.type, id: options.trigger.id, name: options.trigger.name },
    data: options.data,
  };
  return {
    url: `${options.functionUrl.replace(/\/+$/, "")}${options.functionPath}`,
    headers: { "content-type": "application/json", [TRIGGER_INVOCATION_HEADER]: options.invocationId },
    body: JSON.stringify(body),
  };
}
