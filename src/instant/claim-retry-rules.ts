/**
 * The claimable database API's retry rules, for the shared transport: up to 4 attempts;
 * 429 and 503 (nothing was applied) always retried; no answer, 500, 502 and 504 retried only
 * for a request that may be resent (a create naming its id); a wait of `Retry-After` capped
 * at 10 s, else 0.5 s × 2ⁿ with full jitter. Pure.
 */
import type { RetryDecision, RetryInput } from "../api/retry-policy.js";

/** Requests in all, the first one included. */
export const CLAIM_ATTEMPTS = 4;
/** The backoff's first ceiling, doubled per retry. */
const BASE_DELAY_MS = 500;
/** The longest `Retry-After` honoured as given; longer ones wait this long. */
const MAX_RETRY_AFTER_MS = 10_000;

const NOTHING_APPLIED = new Set([429, 503]);
const MAYBE_APPLIED = new Set([500, 502, 504]);

/** The claimable database API's retry decision. */
export function decideClaimRetry(input: RetryInput): RetryDecision {
  const { outcome, retriesSoFar, jitter } = input;
  const resendable = input.resendable === true;
  const status = outcome.kind === "status" ? outcome.status : undefined;
  const retryable = status === undefined || MAYBE_APPLIED.has(status) ? resendable : NOTHING_APPLIED.has(status);
  if (!retryable) return { retry: false, why: status === undefined || MAYBE_APPLIED.has(status) ? "unsafe-method" : "not-retryable" };
  if (retriesSoFar + 1 >= CLAIM_ATTEMPTS) return { retry: false, why: "exhausted" };
  const retryAfterMs = outcome.kind === "status" ? outcome.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) return { retry: true, delayMs: Math.min(retryAfterMs, MAX_RETRY_AFTER_MS) };
  return { retry: true, delayMs: Math.round(Math.min(Math.max(jitter, 0), 1) * BASE_DELAY_MS * 2 ** retriesSoFar) };
}
