import { describe, expect, it } from "vitest";
import { ByteBudget } from "../../../src/bundle/byte-budget.js";

describe("ByteBudget claims", () => {
  it("asks a waiting claim for its size when it reaches the head, and holds the size admitted", async () => {
    const budget = new ByteBudget(10);
    const first = await budget.claim(8);
    let perEntry = 5;
    const asked: number[] = [];
    const second = budget.claim(() => {
      asked.push(perEntry);
      return perEntry;
    });
    expect(asked).toEqual([5]);
    perEntry = 2;
    first.release(0);
    expect(asked).toEqual([5, 2]);
    await second;
    expect(budget.inUse).toBe(10);
  });

  it("resizes past the limit without waiting, and admits waiters as partial releases make room", async () => {
    const budget = new ByteBudget(10);
    const batch = await budget.claim(4);
    batch.resize(14);
    expect(budget.inUse).toBe(14);
    let admitted = false;
    const next = budget.claim(3).then((claim) => {
      admitted = true;
      return claim;
    });
    batch.release(5);
    await Promise.resolve();
    expect(admitted).toBe(false);
    batch.release(2);
    (await next).close();
    expect(admitted).toBe(true);
    batch.close();
    batch.close();
    expect(budget.inUse).toBe(0);
  });
});
