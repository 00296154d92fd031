/**
 * The request log: a ring of the last 1,000 entries, plus an optional sink
 * (`text` or `json` lines on stderr, or a callback). Never records bodies, headers or query strings.
 * Text from the request (the decoded path, ignored field names, the method) is escaped when
 * recorded, so a `%0A` in a path cannot forge a log line and a bidi override cannot reorder one.
 */
import { escapeUnsafeText } from "../rules/visible-text.js";
import { LogRing, writeToSink, type LogSink } from "./log-ring.js";
import { writeStderrNow } from "./stderr-lines.js";

/** One request log entry. */
export interface RequestLogEntry {
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** HTTP status, or `reset` for a dropped connection. */
  status: number | "reset";
  durationMs: number;
  requestId: string;
  /** Injected fault rule indexes, or `-`. */
  fault: string;
  /** Unknown body (`a.b`) and query (`?x`) fields that were ignored. */
  ignored?: string[];
}

/** Where log lines go: nowhere, stderr as text or JSON lines, or a callback. */
export type RequestLogSink = LogSink<RequestLogEntry>;

/** Formats an entry as the text log line. */
export function formatLogLine(e: RequestLogEntry): string {
  const ignored = e.ignored !== undefined && e.ignored.length > 0 ? ` ignored=${e.ignored.join(",")}` : "";
  return `${e.time} ${e.method} ${e.path} ${e.status} ${e.durationMs.toFixed(1)}ms rid=${e.requestId} fault=${e.fault}${ignored}`;
}

/** The ring buffer and its sink. */
export class RequestLog {
  private readonly ring = new LogRing<RequestLogEntry>();

  constructor(private readonly sink: RequestLogSink = "off") {}

  /** Whether {@link add} keeps what it is given: when not, a caller need not build entries. */
  get keeps(): boolean {
    return true;
  }

  /** Records one entry, escaping the text that came from the request. */
  add(raw: RequestLogEntry): void {
    const entry: RequestLogEntry = {
      ...raw,
      method: escapeUnsafeText(raw.method),
      path: escapeUnsafeText(raw.path),
      requestId: escapeUnsafeText(raw.requestId),
      ...(raw.ignored === undefined ? {} : { ignored: raw.ignored.map(escapeUnsafeText) }),
    };
    this.ring.push(entry);
    writeToSink(this.sink, entry, formatLogLine);
  }

  /** The most recent entries, oldest first. @default limit 1000 */
  recent(limit?: number): RequestLogEntry[] {
    return this.ring.recent(limit);
  }

  /**
   * Writes a warning or error line to stderr, whatever the request log's sink: without
   * `--verbose` stderr still gets start, stop, warnings and errors.
   */
  notice(message: string): void {
    writeStderrNow(`svc emulator: ${message}\n`);
  }

  /** Writes a routine line (e.g. the PostgreSQL server's own log) to stderr only with `--verbose`. */
  detail(message: string): void {
    if (this.sink === "text" || this.sink === "json") writeStderrNow(`svc emulator: ${message}\n`);
  }
}
