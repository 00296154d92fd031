/** The clock's changes as the test routes ask for them, without HTTP. */
import { describe, expect, it } from "vitest";
import { changeClock, createClock, isoTime } from "../../../src/emulator/engine/clock.js";
import { refusal } from "./unit-world.js";

describe("clock changes", () => {
  const start = Date.parse("2026-11-20T12:00:00Z");

  it("advances, moves to a time given as text or epoch ms, and switches mode", () => {
    const clock = createClock(new Date(start));
    changeClock(clock, { advance_ms: 1_000 });
    expect(clock.now()).toBe(start + 1_000);
    changeClock(clock, { set: "2026-11-21T00:00:00Z" });
    changeClock(clock, { set: Date.parse("2026-11-22T00:00:00Z") });
    expect(new Date(clock.now()).toISOString()).toBe("2026-11-22T00:00:00.000Z");
    changeClock(clock, { mode: "system" });
    expect(clock.mode).toBe("system");
  });

  it("refuses going backwards, an unreadable time, and a mode switch of a caller-supplied clock as invalid requests", () => {
    const clock = createClock(new Date(start));
    expect([refusal(() => changeClock(clock, { set: start - 1 })), refusal(() => changeClock(clock, { set: "yesterday" }))]).toEqual([
      ["invalid", "invalid_request"],
      ["invalid", "invalid_request"],
    ]);
    expect(refusal(() => changeClock(createClock({ now: () => start }), { mode: "manual" }))).toEqual(["invalid", "invalid_request"]);
    expect(clock.now()).toBe(start);
  });

  it("formats epoch ms as Date does, the same millisecond again and others in any order", () => {
    const times = [start, start, start + 1, start, 0, -1, start + 0.9, 8.64e15, start];
    expect(times.map(isoTime)).toEqual(times.map((ms) => new Date(ms).toISOString()));
    for (const bad of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) expect(() => isoTime(bad)).toThrow(RangeError);
    expect(isoTime(start)).toBe("2026-11-20T12:00:00.000Z");
  });
});
