import { ByteBudget } from "./byte-budget.js";

/**
 * The bytes of esbuild output one bundling run holds at once. An esbuild call returns every
 * output of its batch together, and each stays in memory until its archive is made, so a batch
 * of large functions holds them all. Output sizes are known only after a build: the first batch
 * is small and holds the whole budget while it builds; later batches are sized from the bytes
 * per entry measured so far, and a batch starts only when its estimate fits beside what the
 * batches before it still hold.
 */

/** Bytes of esbuild output a bundling run holds at once (batches still building count at their estimate). */
export const OUTPUT_BYTES_IN_FLIGHT = 32 * 1024 * 1024;

/** A batch is sized to this share of the budget, so about this many batches build and finish at once. */
export const BATCHES_PER_BUDGET = 4;

/** Entries of a batch built before any output size is known. */
export const FIRST_BATCH_ENTRIES = 8;

/** At most this many entries go through one esbuild call. */
export const MAX_ENTRIES_PER_BUILD = 256;

/**
 * Entries of the next batch: {@link FIRST_BATCH_ENTRIES} before any output was measured, else as
 * many as fit in 1/{@link BATCHES_PER_BUDGET} of `budget` at `bytesPerEntry` each, from 1 to
 * {@link MAX_ENTRIES_PER_BUILD}.
 */
export function entriesPerBatch(bytesPerEntry: number | undefined, budget: number): number {
  if (bytesPerEntry === undefined) return FIRST_BATCH_ENTRIES;
  const fit = Math.floor(budget / BATCHES_PER_BUDGET / Math.max(1, bytesPerEntry));
  return Math.min(MAX_ENTRIES_PER_BUILD, Math.max(1, fit));
}

/** One admitted batch's share of an {@link OutputBudget}. */
export interface BatchLease {
  /** How many entries the batch takes. */
  readonly entries: number;
  /** The batch's outputs are in: their sizes (one per entry) replace its estimate and are measured. */
  measured(bytes: readonly number[]): void;
  /** One output is archived or dropped: its bytes are free. */
  release(bytes: number): void;
  /** The batch is done (or failed): whatever it still holds is free. Idempotent. */
  close(): void;
}

/**
 * Admits batches first come, first served while their estimated bytes fit beside those held;
 * one batch is always admitted when nothing is held, so a single output larger than the budget
 * still builds.
 */
export class OutputBudget {
  private readonly bytes: ByteBudget;
  private measuredBytes = 0;
  private measuredEntries = 0;

  constructor(readonly budget: number = OUTPUT_BYTES_IN_FLIGHT) {
    this.bytes = new ByteBudget(budget);
  }

  /** Mean output bytes per entry of the batches measured so far; undefined before the first. */
  bytesPerEntry(): number | undefined {
    return this.measuredEntries === 0 ? undefined : this.measuredBytes / this.measuredEntries;
  }

  /** Bytes held now: estimates of batches building, sizes of outputs not yet released. */
  heldBytes(): number {
    return this.bytes.inUse;
  }

  /**
   * Waits for room, then admits a batch of at most `remaining` entries (at least 1) sized from
   * the bytes per entry known at that moment, and holds its estimate (the whole budget before
   * any size is known).
   */
  async admit(remaining: number): Promise<BatchLease> {
    let entries = 1;
    const claim = await this.bytes.claim(() => {
      const perEntry = this.bytesPerEntry();
      entries = Math.min(Math.max(1, remaining), entriesPerBatch(perEntry, this.budget));
      return perEntry === undefined ? this.budget : Math.ceil(entries * perEntry);
    });
    return {
      entries,
      measured: (bytes) => {
        const total = bytes.reduce((sum, b) => sum + b, 0);
        this.measuredBytes += total;
        this.measuredEntries += bytes.length;
        claim.resize(total);
      },
      release: (bytes) => claim.release(bytes),
      close: () => claim.close(),
    };
  }
}
