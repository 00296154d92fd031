import { describe, expect, it } from "vitest";
import { createAdaptiveLimit } from "../../../src/apply/adaptive-limit.js";

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

async function runMany(limit: ReturnType<typeof createAdaptiveLimit>, n: number, each: () => Promise<void> = tick): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => limit(each)));
}

describe("the adaptive request limit", () => {
  it("grows from concurrency toward maxConcurrency while answers come without throttling, never past it", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 32 });
    await runMany(limit, 300);
    expect(limit.limit).toBe(32);
    expect(limit.peak).toBe(32);
  });

  it("stays at concurrency when maxConcurrency equals it", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 8 });
    await runMany(limit, 100);
    expect(limit.peak).toBe(8);
  });

  it("halves on throttling, once per window, then grows again", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 32 });
    await runMany(limit, 300);
    limit.throttled();
    limit.throttled();
    expect(limit.limit).toBe(16);
    await runMany(limit, 300);
    expect(limit.limit).toBe(32);
  });

  it("backs off when latency climbs well above the fastest answer", () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 32 });
    for (let i = 0; i < 20; i++) limit.latency(40);
    expect(limit.limit).toBe(8);
    for (let i = 0; i < 20; i++) limit.latency(400);
    expect(limit.limit).toBe(4);
  });

  it("compares latency within a kind of request: slower uploads next to fast reads do not halve the limit", () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 32 });
    for (let i = 0; i < 20; i++) {
      limit.latency(40, "GET /projects/*/branches/*/functions");
      limit.latency(400, "POST /projects/*/branches/*/functions/*/deployments");
    }
    expect(limit.limit).toBe(8);
    for (let i = 0; i < 20; i++) limit.latency(2000, "POST /projects/*/branches/*/functions/*/deployments");
    expect(limit.limit).toBe(4);
  });

  it("halves once for one congestion: answers to requests sent before the back-off neither end its hold nor halve it again", async () => {
    let clock = 0;
    const limit = createAdaptiveLimit({ initial: 64, max: 64, now: () => clock });
    const answers: (() => void)[] = [];
    const inFlight = Array.from({ length: 64 }, () => limit(() => new Promise<void>((resolve) => answers.push(resolve))));
    await tick();
    for (let i = 0; i < 200; i++) limit.latency(40);
    clock = 1000;
    // The queue the 64 requests built answers slowly: the limit halves.
    for (let i = 0; i < 10; i++) limit.latency(300);
    expect(limit.limit).toBe(32);
    // All 64 answer as slowly after it. Before, the hold (32 answers) ended half-way through them
    // and the rest halved the limit again and again, down to 2, for one congestion.
    clock = 1300;
    for (const answer of answers.splice(0)) {
      limit.latency(300);
      answer();
      await tick();
    }
    await Promise.all(inFlight);
    expect(limit.limit).toBe(32);
  });

  it("still halves again when the requests sent after a back-off answer slowly too", async () => {
    let clock = 0;
    const limit = createAdaptiveLimit({ initial: 16, max: 16, now: () => clock });
    for (let i = 0; i < 40; i++) limit.latency(40);
    clock = 1000;
    for (let i = 0; i < 10; i++) limit.latency(300);
    expect(limit.limit).toBe(8);
    // Sent after the back-off and as slow: once their window is answered, the limit halves again.
    await runMany(limit, 8, async () => {
      await tick();
      clock += 400;
      limit.latency(300);
    });
    for (let i = 0; i < 20; i++) {
      clock += 400;
      limit.latency(300);
    }
    expect(limit.limit).toBe(4);
  });

  it("holds a throttling back-off until the requests sent after it answered", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 8 });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = runMany(limit, 8, () => released);
    await tick();
    limit.throttled();
    expect(limit.limit).toBe(4);
    // The 8 sent before it answer (throttled too): no second halving.
    release();
    await before;
    limit.throttled();
    expect(limit.limit).toBe(4);
    // A window of requests sent after it: the next throttling halves.
    await runMany(limit, 4);
    limit.throttled();
    expect(limit.limit).toBe(2);
  });

  it("grows by two with each answer until the first back-off (a window of answers triples it), then ×1.5 per window", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 64 });
    await runMany(limit, 8);
    expect(limit.limit).toBe(24);
    limit.throttled();
    expect(limit.limit).toBe(12);
    // After a back-off: a window held, then ×1.5 per window.
    await runMany(limit, 24);
    expect(limit.limit).toBe(18);
  });

  it("sends the rest of the uploads and the quick calls queued behind them in the second round", async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 64 });
    let answer = (): void => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let inFlight = 0;
    const call = (priority: number, fn: () => Promise<void>) => limit(async () => {
      inFlight += 1;
      await fn();
      inFlight -= 1;
    }, priority);
    const firstRound = Array.from({ length: 8 }, () => call(100, () => answered));
    // 16 more uploads, then a compute update and six bucket creates: all waiting behind the first round.
    const waiting = [...Array.from({ length: 16 }, () => call(100, () => new Promise<void>((r) => setTimeout(r, 20)))), ...Array.from({ length: 7 }, (_, i) => call(i === 0 ? 50 : 1, () => new Promise<void>((r) => setTimeout(r, 20))))];
    await tick();
    expect(inFlight).toBe(8);
    answer();
    await Promise.all(firstRound);
    await new Promise<void>((r) => setImmediate(r));
    const secondRound = inFlight;
    await Promise.all(waiting);
    expect(secondRound).toBe(23);
  });

  it("gives a free slot to the waiting call of the highest priority, in call order among equals", async () => {
    const limit = createAdaptiveLimit({ initial: 1, max: 1 });
    const order: string[] = [];
    const call = (name: string, priority?: number) => limit(async () => {
      order.push(name);
      await tick();
    }, priority);
    await Promise.all([call("low", 1), call("plain"), call("high", 100), call("mid", 50), call("mid again", 50)]);
    expect(order).toEqual(["high", "mid", "mid again", "low", "plain"]);
  });

  it("hands the slots of answers read together to the waiting calls by priority, calls those answers caused included", async () => {
    const limit = createAdaptiveLimit({ initial: 2, max: 2 });
    const started: string[] = [];
    let answer = (): void => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const call = (name: string, priority: number, fn: () => Promise<void> = tick) => limit(async () => {
      started.push(name);
      await fn();
    }, priority);
    const first = [call("first", 10, () => answered), call("second", 10, () => answered)];
    const low = call("low", 1);
    await tick();
    expect(started).toEqual(["first", "second"]);
    answer();
    // Both answers are in; the call they cause joins before the next check phase, as a dependent change's request does.
    await Promise.all(first);
    const high = call("high", 100);
    await Promise.all([low, high]);
    expect(started).toEqual(["first", "second", "high", "low"]);
  });

  it("settles a call whose function throws before returning a promise, and frees its slot", async () => {
    const limit = createAdaptiveLimit({ initial: 1, max: 1 });
    const refused = limit<never>(() => {
      throw new Error("refused");
    });
    await expect(refused).rejects.toThrow("refused");
    await expect(limit(() => Promise.resolve("next"))).resolves.toBe("next");
  });
});
