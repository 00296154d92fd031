/** The most requests or builds in flight any run may be given (`concurrency`, `maxConcurrency`, a fleet's budget, bundling). */
export const CONCURRENCY_CEILING = 64;

/**
 * The most requests one run may grow to while the platform answers without throttling
 * (`maxConcurrency`, also its default): twice {@link CONCURRENCY_CEILING}, since the adaptive limit
 * only reaches it by slow start and halves on the first sign of throttling.
 */
export const IN_FLIGHT_CEILING = 128;

/** Whether `value` is a valid `concurrency`: an integer from 1 to {@link CONCURRENCY_CEILING}. */
export function isConcurrency(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= CONCURRENCY_CEILING;
}
