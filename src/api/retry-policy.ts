/**
 * The client's retry rules as pure decisions (423, 429 and 503 on the schedule below; reads
 * also after no answer or a 500/502/504; mutations never resent blindly): given what an attempt produced, retry after
 * how long, or stop. No I/O, clock or randomness of its own (jitter comes in as a number).
 */

/** The first wait of the schedule: 100 ms, doubling (100, 200, 400, 800). */
export const FIRST_RETRY_DELAY_MS = 100;
/**
 * Requests in all, the first one included, before giving up:
 * at most four retries, the same budget for 423, 429, 503 and reads without an answer.
 */
export const MAX_ATTEMPTS = 5;
/** A `Retry-After` longer than this makes the client give up at once. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** Upper bound of the random extra wait, as a fraction of the delay. */
export const MAX_JITTER = 0.1;

/** What an attempt produced. */
export type AttemptOutcome =
  | { kind: "status"; status: number; retryAfterMs?: number }
  | { kind: "no-response" };

/** The decision for one failed attempt. */
export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; why: "not-retryable" | "exhausted" | "retry-after-too-long" | "unsafe-method" };

/** Methods that may be resent after no response or a 500/502/504. */
export function isIdempotentMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}

/** The schedule's wait before retry number `retryIndex` (0-based), without jitter. */
export function scheduleDelayMs(retryIndex: number): number {
  return FIRST_RETRY_DELAY_MS * 2 ** retryIndex;
}

/** What a retry decision is made from. */
export interface RetryInput {
  method: string;
  /** Whether the request may be resent after no answer. @default true for GET, HEAD and OPTIONS */
  resendable?: boolean;
  outcome: AttemptOutcome;
  /** Retries already made. */
  retriesSoFar: number;
  /** A number in [0, 1). */
  jitter: number;
}

/** A set of retry rules: the management API's ({@link decideRetry}) or another API's. Pure. */
export type RetryRules = (input: RetryInput) => RetryDecision;

/**
 * The management API's rules: whether to retry, and after how long. `jitter` is scaled to at
 * most +10 %.
 */
export function decideRetry(options: RetryInput): RetryDecision {
  const { method, outcome, retriesSoFar, jitter } = options;
  const resendable = options.resendable ?? isIdempotentMethod(method);
  const withJitter = (ms: number): number => Math.round(ms * (1 + Math.min(Math.max(jitter, 0), 1) * MAX_JITTER));
  const base = scheduleDelayMs(retriesSoFar);

  if (outcome.kind === "no-response" || [500, 502, 504].includes(outcome.status)) {
    if (!resendable) return { retry: false, why: "unsafe-method" };
    if (retriesSoFar + 1 >= MAX_ATTEMPTS) return { retry: false, why: "exhausted" };
    return { retry: true, delayMs: withJitter(base) };
  }
  const { status, retryAfterMs } = outcome;
  if (status !== 423 && status !== 429 && status !== 503) return { retry: false, why: "not-retryable" };
  if (status !== 423 && retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
    return { retry: false, why: "retry-after-too-long" };
  }
  if (retriesSoFar + 1 >= MAX_ATTEMPTS) return { retry: false, why: "exhausted" };
  if (status === 429 && retryAfterMs !== undefined) return { retry: true, delayMs: withJitter(retryAfterMs) };
  if (status === 503 && retryAfterMs !== undefined) return { retry: true, delayMs: withJitter(Math.max(base, retryAfterMs)) };
  return { retry: true, delayMs: withJitter(base) };
}

/**
 * Parses a `Retry-After` header (delay seconds or an HTTP date) into milliseconds from `now`;
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
