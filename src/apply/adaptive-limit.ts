/**
 * The executor's limit on requests in flight: it starts at `concurrency`,
 * grows ×1.5 after each full window of answers without throttling, up to `maxConcurrency`, and
 * halves on a 429/503/423 or when latency climbs well above the fastest seen for the same kind
 * of request (then holds for a window before it can halve again): an upload is slower than a
 * read by nature, and comparing the two would halve the limit for no reason. Slots are taken
 * only while a request is in flight.
 */

/** Statuses that mean "slow down". */
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([423, 429, 503]);

/** A concurrency limiter that adapts to the platform's answers. */
export interface AdaptiveLimit {
  /** Runs `fn` once a slot is free, holding it until `fn` settles. */
  <T>(fn: () => Promise<T>): Promise<T>;
  /** The current limit. */
  readonly limit: number;
  /** The most requests that were in flight at once. */
  readonly peak: number;
  /** A throttling answer was seen: halve the limit. */
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
}

/** Latency counts as rising when its moving average exceeds this multiple of the fastest answer, plus a floor. */
const LATENCY_FACTOR = 3;
const LATENCY_FLOOR_MS = 50;

/** Creates the limiter; with `max === initial` it is a fixed limit. */
export function createAdaptiveLimit(options: AdaptiveLimitOptions): AdaptiveLimit {
  const queue: (() => void)[] = [];
  let limit = options.initial;
  let active = 0;
  let peak = 0;
  let answers = 0;
  let hold = 0;
  const kinds = new Map<string, { fastest: number; average: number; samples: number }>();

  const pump = (): void => {
    while (active < limit && queue.length > 0) {
      active += 1;
      peak = Math.max(peak, active);
      queue.shift()?.();
    }
  };

  const backOff = (): void => {
    if (hold > 0) return;
    limit = Math.max(1, Math.floor(limit / 2));
    hold = limit;
    answers = 0;
  };

  const run = <T>(fn: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        // A guard inside `fn` may throw before it returns a promise: that must settle this call and free the slot too.
        new Promise<T>((settle) => settle(fn())).then(resolve, reject).finally(() => {
          active -= 1;
          if (hold > 0) hold -= 1;
          else {
            answers += 1;
            if (answers >= limit && limit < options.max) {
              limit = Math.min(options.max, Math.ceil(limit * 1.5));
              answers = 0;
            }
          }
          pump();
        });
      });
      pump();
    });

  const latency = (ms: number, kind = ""): void => {
    const seen = kinds.get(kind) ?? { fastest: ms, average: ms, samples: 0 };
    kinds.set(kind, seen);
    seen.fastest = Math.min(seen.fastest, ms);
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
