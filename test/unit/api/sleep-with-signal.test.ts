/**
 * The retry wait (`sleepWithSignal`) under many requests retrying at once: one `abort` listener on
 * the caller's signal however many wait, so Node prints no MaxListenersExceededWarning on the
 * user's terminal; an abort still ends every wait with the signal's reason.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { sleepWithSignal } from "../../../src/api/client-options.js";

const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
afterEach(() => {
  process.off("warning", onWarning);
  warnings.length = 0;
});

describe("the retry wait on a caller's signal", () => {
  it("adds one abort listener for 128 waits at once, and Node warns of no listener leak", async () => {
    process.on("warning", onWarning);
    const controller = new AbortController();
    const waits = Array.from({ length: 128 }, () => sleepWithSignal(5, controller.signal));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    await Promise.all(waits);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    // The waits that ended are no longer woken by an abort, and a new wait shares the same listener.
    const later = sleepWithSignal(5, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    await later;
  });

  it("ends every wait under way with the signal's reason when it aborts, and refuses a wait after it", async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 20 }, () => sleepWithSignal(60_000, controller.signal).then(() => "slept", (err: unknown) => err));
    const reason = new Error("stopped by the caller");
    controller.abort(reason);
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 20 }, () => reason));
    await expect(sleepWithSignal(60_000, controller.signal)).rejects.toBe(reason);
  });

  it("waits without a signal", async () => {
    await expect(sleepWithSignal(1)).resolves.toBeUndefined();
  });
});
