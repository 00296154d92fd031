/**
 * The executor's limit on requests in flight: it starts at `concurrency` and, until the first
 * back-off, grows by {@link SLOW_START_STEP} with each answer that came without throttling
 * (tripling per window of answers, as a TCP slow start that counts two segments per
 * acknowledgement), afterwards ×1.5 per full window, never past `maxConcurrency`.
 * It halves on a 429/503/423 or when latency climbs well above the fastest seen for the same
 * kind of request (then holds for a window before it can halve again): an upload is slower than
 * a read by nature, and comparing the two would halve the limit for no reason. The window held
 * is one of requests sent after the halving: answers to requests sent before it (their latency
 * is that of the queue the halving answers) neither end the hold nor count as latency, so one
 * congestion does not halve the limit again and again. Slots are taken
 * only while a request is in flight; a waiting request of a higher priority takes the next free
 * one, in call order among equals (a call waits at least until the event loop's next check phase,
 * so the calls of one turn compete by priority). A slot an answer frees is handed out at that
 * check phase too: the answers read together all free their slots (and their connections) first,
 * then the waiting calls take them by priority, those the answers just caused included.
 */
import { MinHeap } from "../diff/min-heap.js";

/** Statuses that mean "slow down". */
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([423, 429, 503]);

/** A concurrency limiter that adapts to the platform's answers. */
export interface AdaptiveLimit {
  /** Runs `fn` once a slot is free (before waiting calls of a lower `priority`, default 0), holding it until `fn` settles. */
  <T>(fn: () => Promise<T>, priority?: number): Promise<T>;
  /** The current limit. */
  readonly limit: number;
  /** The most requests that were in flight at once. */
  readonly peak: number;
  /** A throttling answer (or a retry after no answer at all) was seen: halve the limit. */
  throttled(): void;
  /**
   * A request of kind `kind` (e.g. its method and path template) took `ms`, retries included: a
   * sustained climb within one kind backs off like throttling.
   */
  latency(ms: number, kind?: string): void;
}

/** Options of {@link createAdaptiveLimit}. */
export interface AdaptiveLimitOptions {
  initial: number;
  max: number;
  /** A monotonic clock in ms, the one `latency` durations are measured on. @default performance.now */
  now?: () => number;
}

/**
 * Slots added per answer until the first back-off. Two, not one: the first round's answers then
 * make room for the rest of the uploads and for the quick requests queued behind them (a
 * compute update) in the same second round, instead of leaving those for a third.
 */
const SLOW_START_STEP = 2;

/** Latency counts as rising when its moving average exceeds this multiple of the fastest answer, plus a floor. */
const LATENCY_FACTOR = 3;
const LATENCY_FLOOR_MS = 50;

/** Creates the limiter; with `max === initial` it is a fixed limit. */
export function createAdaptiveLimit(options: AdaptiveLimitOptions): AdaptiveLimit {
  const queue = new MinHeap<{ priority: number; seq: number; run: () => void }>((a, b) => b.priority - a.priority || a.seq - b.seq);
  let seq = 0;
  let slowStart = true;
  let limit = options.initial;
  let active = 0;
  let peak = 0;
  let answers = 0;
  let hold = 0;
  // Back-offs so far, and when the last one happened: what was sent before it is out of the window.
  let backOffs = 0;
  let backedOffAt = Number.NEGATIVE_INFINITY;
  const now = options.now ?? (() => performance.now());
  const kinds = new Map<string, { fastest: number; average: number; samples: number }>();

  const pump = (): void => {
    while (active < limit && queue.size > 0) {
      active += 1;
      peak = Math.max(peak, active);
      queue.pop()?.run();
    }
  };

  // Calls made in the same turn (the changes the executor starts together, each after a few
  // awaits of its own) all queue before any takes a slot, so they take them by priority.
  let pumpScheduled = false;
  const schedulePump = (): void => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  };

  const backOff = (): void => {
    if (hold > 0) return;
    slowStart = false;
    limit = Math.max(1, Math.floor(limit / 2));
    hold = limit;
    answers = 0;
    backOffs += 1;
    backedOffAt = now();
  };

  const grow = (): void => {
    answers += 1;
    if (limit >= options.max) return;
    if (slowStart) limit = Math.min(options.max, limit + SLOW_START_STEP);
    else if (answers >= limit) {
      limit = Math.min(options.max, Math.ceil(limit * 1.5));
      answers = 0;
    }
  };

  const run = <T>(fn: () => Promise<T>, priority = 0): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = (): void => {
        const sentAfter = backOffs;
        // A guard inside `fn` may throw before it returns a promise: that must settle this call and free the slot too.
        new Promise<T>((settle) => settle(fn())).then(resolve, reject).finally(() => {
          active -= 1;
          // An answer to a request sent before the last back-off says nothing of the window since.
          if (sentAfter === backOffs) {
            if (hold > 0) hold -= 1;
            else grow();
          }
          // Not at once: a call started now would go before answers still to be read in this
          // turn (and take their connections), ahead of calls of a higher priority.
          schedulePump();
        });
      };
      queue.push({ priority, seq: seq++, run: start });
      schedulePump();
    });

  const latency = (ms: number, kind = ""): void => {
    const seen = kinds.get(kind) ?? { fastest: ms, average: ms, samples: 0 };
    kinds.set(kind, seen);
    seen.fastest = Math.min(seen.fastest, ms);
    if (now() - ms < backedOffAt) return;
    seen.average = 0.8 * seen.average + 0.2 * ms;
    seen.samples += 1;
    if (seen.samples > 2 * options.initial && seen.average > LATENCY_FACTOR * seen.fastest + LATENCY_FLOOR_MS) {
      backOff();
      seen.average = seen.fastest;
    }
  };
  return Object.defineProperties(run, {
    limit: { get: () => limit, enumerable: true },
    peak: { get: () => peak, enumerable: true },
    throttled: { value: backOff, enumerable: true },
    latency: { value: latency, enumerable: true },
  }) as AdaptiveLimit;
}
