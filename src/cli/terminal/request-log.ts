/**
 * The `--verbose` request log: one line per HTTP request, built only from the
 * engine's `read` and `retry` events. The events carry method, path, status, duration and
 * request id, never headers or bodies; the context's scrubber still guards the stream.
 */

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

/**
 * The log line of an engine event, or `undefined` for events that are not about a request:
 * `http GET /projects/p 200 12ms rid=…` for a `read`, `retry POST /path attempt 2 in 400ms
 * (503) rid=…` for a `retry`. A request that got no answer reads `no response`.
 */
export function requestLogLine(event: unknown): string | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const e = event as Record<string, unknown>;
  const status = text(e.status) ?? "no response";
  const rid = text(e.requestId) ?? "-";
  if (e.type === "read") {
    return `http ${text(e.request) ?? "?"} ${status} ${text(e.ms) ?? "?"}ms rid=${rid}`;
  }
  if (e.type === "retry") {
    return `retry ${text(e.method) ?? "?"} ${text(e.path) ?? "?"} attempt ${text(e.attempt) ?? "?"} in ${text(e.delayMs) ?? "?"}ms (${status}) rid=${rid}`;
  }
  return undefined;
}
