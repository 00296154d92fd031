/** The most requests or builds in flight any run may be given (`concurrency`, `maxConcurrency`, a fleet's budget, bundling). */
export const CONCURRENCY_CEILING = 64;

/** Whether `value` is a valid `concurrency`: an integer from 1 to {@link CONCURRENCY_CEILING}. */
export function isConcurrency(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= CONCURRENCY_CEILING;
}
