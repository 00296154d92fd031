/**
 * `svc dev --trigger NAME`: sends one invocation of a trigger declared in `svc.ts` to the local
 * function, in the platform's envelope, so schedule and upload handlers can be developed without
 * waiting for the schedule or uploading anything.
 */
import { randomUUID } from "node:crypto";
import type { ResolvedPolicy } from "../../model/desired-state.js";

type ResolvedTrigger = ResolvedPolicy["triggers"][number];
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { scheduledAtMinute, triggerInvocationRequest, type TriggerInvocationData } from "../../rules/trigger-invocation.js";

/** Options of {@link sendTriggerInvocation}. */
export interface SendTriggerOptions {
  trigger: ResolvedTrigger;
  /** The local function's base URL. */
  functionUrl: string;
  /** The trigger's id on the branch, when it exists there; else a new `trigger-<uuid>`. */
  liveId?: string;
  /** The object key a storage trigger reports. @default `<prefix>example.txt` */
  objectKey?: string;
  now: Date;
  /** Abandons the request (svc dev is stopping). */
  signal?: AbortSignal;
}

/** What the function answered. */
export interface SentTrigger {
  invocationId: string;
  status: number;
  /** The start of the answer's body, for the log line. */
  body: string;
}

/** The trigger named `name`, or a `CLI_USAGE` error listing the declared ones. */
export function findTrigger(triggers: readonly ResolvedTrigger[], name: string): ResolvedTrigger {
  const found = triggers.find((t) => t.name === name);
  if (found !== undefined) return found;
  const names = triggers.map((t) => t.name).join(", ") || "none";
  throw new CliError(CliErrorCode.USAGE, `svc.ts declares no trigger ${JSON.stringify(name)} (it declares: ${names}).`, { hint: "Pass the name of a trigger under `triggers` in svc.ts." });
}

/** The invocation's `data`: the current UTC minute for a schedule, the bucket and a key for a storage trigger. */
export function invocationData(trigger: ResolvedTrigger, now: Date, objectKey: string | undefined): TriggerInvocationData {
  if (trigger.type === "schedule") return { scheduled_at: scheduledAtMinute(now) };
  return { bucket_name: trigger.bucket, object_key: objectKey ?? `${trigger.prefix ?? ""}example.txt` };
}

/** POSTs one invocation to the local function and returns its answer. */
export async function sendTriggerInvocation(options: SendTriggerOptions): Promise<SentTrigger> {
  const invocationId = randomUUID();
  const request = triggerInvocationRequest({
    functionUrl: options.functionUrl,
    functionPath: options.trigger.functionPath,
    invocationId,
    trigger: { type: options.trigger.type, id: options.liveId ?? `trigger-${randomUUID()}`, name: options.trigger.name },
    data: invocationData(options.trigger, options.now, options.objectKey),
  });
  const response = await fetch(request.url, { method: "POST", headers: request.headers, body: request.body, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const text = await response.text();
  return { invocationId, status: response.status, body: text.slice(0, 200) };
}
