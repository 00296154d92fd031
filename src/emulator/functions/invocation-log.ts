/**
 * The invocation log: one record per request a function's front door answered (HTTP from a
 * caller, or a trigger's delivery), kept in a ring of the last 1,000 for
 * `GET /__emulator/invocations`, and written to a sink (text or JSON lines on stderr, or a
 * callback). Text that came from outside (paths, errors, names) is escaped when recorded, so a
 * newline cannot forge a log line.
 */
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { LogRing, writeToSink, type LogSink } from "../log-ring.js";
import { writeStderrNow } from "../stderr-lines.js";

/** The trigger behind an invocation. */
export interface InvocationTrigger {
  id: string;
  name: string;
  type: "schedule" | "storage_object_created";
  /** The envelope's `invocation_id` (the same on the retry). */
  invocation_id: string;
  /** 1, or 2 for the retry. */
  attempt: number;
  /** `scheduled_at` (schedule) or `bucket_name`/`object_key` (storage), as delivered. */
  data: Record<string, string>;
}

/** One invocation, in the wire form `GET /__emulator/invocations` returns. */
export interface InvocationRecord {
  id: string;
  /** When it started, on the emulator's clock. */
  time: string;
  project_id: string;
  branch_id: string;
  function_slug: string;
  /** The deployment that answered (absent when none could: not deployed yet, no completed build). */
  deployment_id?: number;
  /** `http` for a caller's request, `trigger` for a delivery. */
  source: "http" | "trigger";
  trigger?: InvocationTrigger;
  method: string;
  /** The path and query the caller used. */
  path: string;
  /** The status sent, `reset` for a dropped connection, `timeout` when the function did not answer in time (504 sent). */
  status: number | "reset" | "timeout";
  duration_ms: number;
  /** Why it failed: the handler's error, a start failure, a timeout or an injected fault. */
  error?: string;
  /** Injected fault rule indexes. */
  fault?: string;
}

/** Where invocation lines go: nowhere, stderr as text or JSON lines, or a callback. */
export type InvocationLogSink = LogSink<InvocationRecord>;

const MAX_ERROR_CHARS = 4000;

/** The text line of a record: time, function, source, request, status, duration, error. */
export function formatInvocationLine(r: InvocationRecord): string {
  const source = r.trigger !== undefined ? `trigger=${r.trigger.name} attempt=${r.trigger.attempt}` : "http";
  const error = r.error !== undefined ? ` error=${JSON.stringify(r.error.split("\n")[0] ?? "")}` : "";
  return `${r.time} fn ${r.branch_id}/${r.function_slug} ${source} ${r.method} ${r.path} ${r.status} ${r.duration_ms.toFixed(1)}ms${r.fault !== undefined ? ` fault=${r.fault}` : ""}${error}`;
}

/** The ring buffer of invocations and its sink. */
export class InvocationLog {
  private readonly ring = new LogRing<InvocationRecord>();

  constructor(private readonly sink: InvocationLogSink = "off") {}

  /** Records one invocation, escaping the text that came from outside. */
  add(raw: InvocationRecord): InvocationRecord {
    const record: InvocationRecord = {
      ...raw,
      method: escapeUnsafeText(raw.method),
      path: escapeUnsafeText(raw.path),
      ...(raw.error !== undefined ? { error: escapeUnsafeText(raw.error.slice(0, MAX_ERROR_CHARS)) } : {}),
      ...(raw.trigger !== undefined ? { trigger: { ...raw.trigger, name: escapeUnsafeText(raw.trigger.name), data: Object.fromEntries(Object.entries(raw.trigger.data).map(([k, v]) => [k, escapeUnsafeText(v)])) } } : {}),
    };
    this.ring.push(record);
    writeToSink(this.sink, record, formatInvocationLine);
    return record;
  }

  /** Writes one line a function printed, when the sink writes to stderr. */
  output(branchId: string, slug: string, line: string): void {
    if (this.sink === "text" || this.sink === "json") writeStderrNow(`fn ${branchId}/${slug} | ${escapeUnsafeText(line)}\n`);
  }

  /** The most recent records, oldest first. @default limit 1000 */
  recent(limit?: number): InvocationRecord[] {
    return this.ring.recent(limit);
  }
}
