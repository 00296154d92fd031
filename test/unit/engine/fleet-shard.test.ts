import { describe, expect, it } from "vitest";
import { checkShard, shardOfBranch } from "../../../src/engine/fleet-shard.js";
import { isPlatformError } from "../../../src/errors/platform-error.js";

const ids = Array.from({ length: 400 }, (_, i) => `br-${i.toString(36)}-${(i * 7919).toString(16)}`);

describe("shardOfBranch", () => {
  it("puts every branch in exactly one shard, the same one every time, and spreads them", () => {
    for (const count of [1, 2, 3, 7]) {
      const sizes = new Array<number>(count).fill(0);
      for (const id of ids) {
        const shard = shardOfBranch(id, count);
        expect(shard).toBeGreaterThanOrEqual(1);
        expect(shard).toBeLessThanOrEqual(count);
        expect(shardOfBranch(id, count)).toBe(shard);
        sizes[shard - 1] = (sizes[shard - 1] ?? 0) + 1;
      }
      // Each shard gets a fair part: at least half of an even split of 400.
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(Math.floor(400 / count / 2));
    }
  });

  it("moves a branch only to the new shard when the count grows, and never because other branches exist", () => {
    for (const id of ids) {
      const before = shardOfBranch(id, 4);
      const after = shardOfBranch(id, 5);
      expect(after === before || after === 5, id).toBe(true);
    }
    const moved = ids.filter((id) => shardOfBranch(id, 5) === 5).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(ids.length / 2);
  });

  it("treats look-alike and hostile ids as plain data", () => {
    for (const id of ["__proto__", "constructor", "br-a\u0000", "br-a", "br-\u0430", "\u202ebr"]) {
      expect(shardOfBranch(id, 3)).toBeGreaterThanOrEqual(1);
    }
    expect(shardOfBranch("br-a\u0000b", 64)).not.toBeUndefined();
  });
});

describe("checkShard", () => {
  it.each([
    [{ index: 0, count: 3 }],
    [{ index: 4, count: 3 }],
    [{ index: 1.5, count: 3 }],
    [{ index: 1, count: 257 }],
    [{ index: "1", count: 2 }],
    [null],
    ["1/2"],
  ])("refuses %j as PLATFORM_INVALID_OPTIONS", (value) => {
    let thrown: unknown;
    try {
      checkShard(value);
    } catch (err) {
      thrown = err;
    }
    expect(isPlatformError(thrown, "PLATFORM_INVALID_OPTIONS")).toBe(true);
    expect((thrown as Error).message).toContain("Invalid option shard");
  });

  it("accepts whole numbers 1 <= index <= count", () => {
    expect(checkShard({ index: 3, count: 3 })).toEqual({ index: 3, count: 3 });
  });
});
