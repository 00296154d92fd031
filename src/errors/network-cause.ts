/** Why a request got no response, read from the `fetch` error's cause chain. */
export interface NetworkCause {
  /** The innermost message, e.g. `connect ECONNREFUSED 127.0.0.1:45999` or `getaddrinfo ENOTFOUND api.example.test`. */
  text: string;
  /** The system error code (`ECONNREFUSED`, `ENOTFOUND`, …), when there is one. */
  code: string | undefined;
  /** False when the request provably never reached a server (no connection was made). */
  reachedServer: boolean;
}

/** System errors raised before a connection exists: no server saw the request. */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/**
 * Digs through `cause` (undici wraps the system error as `fetch failed` → `cause`) to the
 * innermost error, so a message can name what actually happened without `--verbose`.
 */
export function networkCauseOf(error: unknown): NetworkCause {
  let current: unknown = error;
  let text = error instanceof Error ? error.message : "no response";
  let code: string | undefined;
  for (let depth = 0; depth < 10 && typeof current === "object" && current !== null; depth++) {
    const { message, code: own, cause } = current as { message?: unknown; code?: unknown; cause?: unknown };
    if (typeof message === "string" && message !== "") text = message;
    if (typeof own === "string" && /^E[A-Z_]+$/.test(own)) code = own;
    // AggregateError (happy eyeballs: one attempt per address) carries the system errors in `errors`.
    const errors = (current as { errors?: unknown }).errors;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return { text, code, reachedServer: code === undefined || !NEVER_CONNECTED.has(code) };
}
