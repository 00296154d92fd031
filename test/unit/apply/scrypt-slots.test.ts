import { scryptSync } from "node:crypto";
import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";

const CORES = Math.max(1, availableParallelism());
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** The pool module as a process started with `UV_THREADPOOL_SIZE` = `size` loads it, and the worker threads it creates. */
async function loadPool(size: string | undefined) {
  vi.resetModules();
  if (size === undefined) vi.stubEnv("UV_THREADPOOL_SIZE", undefined);
  else vi.stubEnv("UV_THREADPOOL_SIZE", size);
  const created: unknown[] = [];
  vi.doMock("node:worker_threads", async (importOriginal) => {
    const real = await importOriginal<typeof import("node:worker_threads")>();
    class CountedWorker extends real.Worker {
      constructor(...args: ConstructorParameters<typeof real.Worker>) {
        super(...args);
        created.push(this);
      }
    }
    return { ...real, Worker: CountedWorker };
  });
  const pool = await import("../../../src/engine/scrypt-pool.js");
  return { pool, created };
}

afterEach(() => {
  vi.doUnmock("node:worker_threads");
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("where the scrypt pool runs its derivations", () => {
  it.each([
    [undefined, 2],
    ["4", 2],
    ["3", 1],
    ["2", 0],
    ["1", 0],
    ["8", 6],
    // Read as libuv reads it (atoi; 0 is one thread; negative or past 1024 is 1024).
    ["", 0],
    ["0", 0],
    ["abc", 0],
    [" 3", 1],
    ["3.9", 1],
    ["4abc", 2],
    ["-1", 1022],
    ["5000", 1022],
  ])("with UV_THREADPOOL_SIZE=%j, on libuv's pool at most one per core and never on its last two threads", async (size, spare) => {
    const { pool } = await loadPool(size);
    expect(pool.POOL_SLOTS).toBe(Math.min(CORES, spare));
  });

  it("boots no worker thread while libuv's slots take every derivation", async () => {
    const { pool, created } = await loadPool("4");
    const derivations = Array.from({ length: pool.POOL_SLOTS }, (_, i) => pool.startScrypt(Buffer.from(`v${i}`), Buffer.from("salt")));
    for (const d of derivations) d.hold();
    const keys = await Promise.all(derivations.map((d) => d.key));
    expect(created).toHaveLength(0);
    expect(keys.map((k) => k.toString("hex"))).toEqual(derivations.map((_, i) => scryptSync(`v${i}`, "salt", 32, COST).toString("hex")));
  });

  it("derives on a worker thread, with the same key, when libuv's pool has no thread to spare", async () => {
    const { pool, created } = await loadPool("2");
    const d = pool.startScrypt(Buffer.from("value"), Buffer.from("salt"));
    d.hold();
    expect((await d.key).equals(scryptSync("value", "salt", 32, COST))).toBe(true);
    expect(created).toHaveLength(1);
  });
});
