import { describe, expect, it } from "vitest";
import { type BatchLease, entriesPerBatch, FIRST_BATCH_ENTRIES, MAX_ENTRIES_PER_BUILD, OutputBudget } from "../../../src/bundle/output-budget.js";

const MiB = 1024 * 1024;

/** Lets every settled promise's continuations run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/**
 * Drives `total` entries through `budget` as the bundler does: admit a batch, start it, admit
 * the next. A started batch waits until the test finishes it with `finishOldest`, which
 * measures `bytesPerEntry` for each of its entries, then releases them one by one.
 */
function simulate(budget: OutputBudget, total: number, bytesPerEntry: (index: number) => number) {
  const state = { open: [] as { lease: BatchLease; first: number }[], sizes: [] as number[], maxOpen: 0, maxHeld: 0, admitted: 0 };
  const note = () => {
    state.maxOpen = Math.max(state.maxOpen, state.open.length);
    state.maxHeld = Math.max(state.maxHeld, budget.heldBytes());
  };
  const done = (async () => {
    for (let next = 0; next < total; ) {
      const lease = await budget.admit(total - next);
      state.open.push({ lease, first: next });
      state.sizes.push(lease.entries);
      next += lease.entries;
      state.admitted = next;
      note();
    }
  })();
  const finishOldest = async () => {
    const batch = state.open.shift();
    if (batch === undefined) throw new Error("no batch in flight");
    const bytes = Array.from({ length: batch.lease.entries }, (_, i) => bytesPerEntry(batch.first + i));
    batch.lease.measured(bytes);
    note();
    for (const b of bytes) {
      batch.lease.release(b);
      note();
    }
    batch.lease.close();
    await flush();
  };
  return { state, done, finishOldest };
}

describe("batch sizing from the output budget", () => {
  it.each([
    ["no output measured yet", undefined, 32 * MiB, FIRST_BATCH_ENTRIES],
    ["tiny outputs (400 bytes) fill the largest batch", 400, 32 * MiB, MAX_ENTRIES_PER_BUILD],
    ["empty outputs", 0, 32 * MiB, MAX_ENTRIES_PER_BUILD],
    ["2.5 MB outputs: a quarter of 32 MiB holds three", 2.5e6, 32 * MiB, 3],
    ["outputs of exactly a quarter of the budget", 8 * MiB, 32 * MiB, 1],
    ["an output larger than the whole budget still builds", 100 * MiB, 32 * MiB, 1],
    ["64 KiB outputs: 128 fit in a quarter of 32 MiB", 64 * 1024, 32 * MiB, 128],
  ])("%s", (_name, bytesPerEntry, budget, entries) => {
    expect(entriesPerBatch(bytesPerEntry, budget)).toBe(entries);
  });
});

describe("output budget", () => {
  it("admits nothing beside the first batch until its outputs are measured", async () => {
    const budget = new OutputBudget(1000);
    const run = simulate(budget, 40, () => 10);
    await flush();
    expect(run.state.sizes).toEqual([FIRST_BATCH_ENTRIES]);
    expect(budget.heldBytes()).toBe(1000);
    await run.finishOldest();
    expect(budget.bytesPerEntry()).toBe(10);
    // 10 bytes an entry: batches of 25 (a quarter of 1000 bytes); the 32 left need two.
    expect(run.state.sizes).toEqual([FIRST_BATCH_ENTRIES, 25, 7]);
    while (run.state.open.length > 0) await run.finishOldest();
    await run.done;
    expect(budget.heldBytes()).toBe(0);
  });

  it("keeps a run of large outputs to the budget's worth of batches in flight, each entry admitted once and in order", async () => {
    const budget = new OutputBudget(100);
    const total = 30;
    const run = simulate(budget, total, () => 10);
    await flush();
    await run.finishOldest(); // the first batch of 8 measures 10 bytes an entry
    // Batches of 2 entries (20 bytes, a quarter of 100 rounded down) while their 20 bytes fit: five at once.
    expect(run.state.open.map((b) => b.lease.entries)).toEqual([2, 2, 2, 2, 2]);
    while (run.state.open.length > 0) await run.finishOldest();
    await run.done;
    expect(run.state.admitted).toBe(total);
    expect(run.state.sizes.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(run.state.sizes).toEqual([8, ...Array.from({ length: 11 }, () => 2)]);
    expect(run.state.maxOpen).toBe(5);
    expect(run.state.maxHeld).toBeLessThanOrEqual(100);
    expect(budget.heldBytes()).toBe(0);
  });

  it("frees an output's bytes as it is released, and lets the next batch in then", async () => {
    const budget = new OutputBudget(100);
    const run = simulate(budget, 20, () => 25);
    await flush();
    await run.finishOldest(); // 25 bytes an entry: batches of 1, four fit
    expect(run.state.open.length).toBe(4);
    const oldest = run.state.open.shift();
    oldest?.lease.measured([25]);
    await flush();
    expect(run.state.open.length).toBe(3);
    oldest?.lease.release(25);
    await flush();
    expect(run.state.open.length).toBe(4);
    oldest?.lease.close();
    expect(budget.heldBytes()).toBe(100);
    while (run.state.open.length > 0) await run.finishOldest();
    await run.done;
    expect(budget.heldBytes()).toBe(0);
  });

  it("counts outputs larger than estimated until they are released, and admits no other batch meanwhile", async () => {
    const budget = new OutputBudget(100);
    const run = simulate(budget, 40, () => 10);
    await flush();
    await run.finishOldest(); // batches of 2 at 10 bytes an entry: five fill the budget
    expect(run.state.open.length).toBe(5);
    const big = run.state.open.shift();
    big?.lease.measured([500, 500]);
    await flush();
    expect(budget.heldBytes()).toBe(1080);
    big?.lease.release(500);
    await flush();
    expect(run.state.sizes.length).toBe(6);
    big?.lease.close();
    expect(budget.heldBytes()).toBe(80);
    while (run.state.open.length > 0) await run.finishOldest();
    await run.done;
    expect(run.state.admitted).toBe(40);
    expect(budget.heldBytes()).toBe(0);
  });

  it("admits a batch whose estimate is over the budget when nothing else is held", async () => {
    const budget = new OutputBudget(100);
    const run = simulate(budget, 10, () => 1000);
    await flush();
    await run.finishOldest();
    expect(run.state.open.map((b) => b.lease.entries)).toEqual([1]);
    while (run.state.open.length > 0) await run.finishOldest();
    await run.done;
    expect(run.state.sizes).toEqual([8, 1, 1]);
    expect(run.state.maxOpen).toBe(1);
  });
});
