/**
 * The pause before a watcher's next tick (operations, function builds). Right after progress it
 * is `initialMs`; otherwise a fifth of the time the oldest pending wait has lasted, within
 * `initialMs` and `maxMs`. A completion is then seen at most about a fifth of its wait late (plus
 * one round trip) — where growing the pause ×1.5 per tick from the loop's start could see a
 * 500 ms build 300 ms late — and a long wait still costs one request per `maxMs`.
 */
import type { PlatformApiPolling } from "./client-options.js";

/** The share of the oldest pending wait's age the next pause lasts. */
const AGE_SHARE = 0.2;

/** The pause before the next tick, ms; `oldestWaitMs` is how long the oldest pending wait has lasted. */
export function nextPollMs(polling: PlatformApiPolling, progressed: boolean, oldestWaitMs: number): number {
  if (progressed) return polling.initialMs;
  return Math.min(polling.maxMs, Math.max(polling.initialMs, Math.round(AGE_SHARE * oldestWaitMs)));
}
