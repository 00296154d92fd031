/** The emulator's injectable clock: system, manual, or caller-supplied. */
import { ErrorCode, isPlatformError, PlatformError } from "../../errors/index.js";
import { RuleError } from "./rule-error.js";

/** Anything that tells the time in epoch milliseconds. */
export interface TimeSource {
  now(): number;
}

/** The clock control of a running emulator. */
export interface EmulatorClock {
  /** Current time, epoch ms. Never goes backwards. */
  now(): number;
  /** `system`, `manual`, or `custom` for a caller-supplied source. */
  readonly mode: "system" | "manual" | "custom";
  /** Moves a manual clock forward (a system clock switches to manual at its current time first). */
  advance(ms: number): number;
  /** Moves a manual clock to `date`; throws when that is in the past. */
  set(date: Date | number): number;
  /** Switches between `system` and `manual` (manual starts at the current time). */
  setMode(mode: "system" | "manual"): void;
}

/** Creates a clock: `"system"`, `"manual"` (starts now), a `Date` (manual, starts there), or a source. */
export function createClock(spec: "system" | "manual" | Date | TimeSource = "system"): EmulatorClock {
  let mode: "system" | "manual" | "custom" = "system";
  let manualNow = Date.now();
  let last = 0;
  let source: TimeSource | undefined;
  if (spec === "manual") mode = "manual";
  else if (spec instanceof Date) {
    mode = "manual";
    manualNow = spec.getTime();
  } else if (typeof spec === "object") {
    mode = "custom";
    source = spec;
  }
  const read = (): number => {
    const t = mode === "manual" ? manualNow : mode === "custom" && source ? source.now() : Date.now();
    last = Math.max(last, t);
    return last;
  };
  const requireMovable = (): void => {
    if (mode === "custom") throw new PlatformError(ErrorCode.INVALID_OPTIONS, "the emulator clock is caller-supplied: move your own time source instead");
    if (mode === "system") {
      manualNow = read();
      mode = "manual";
    }
  };
  return {
    now: read,
    get mode() {
      return mode;
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new PlatformError(ErrorCode.INVALID_OPTIONS, `clock advance must be a non-negative number of ms, got ${ms}`);
      requireMovable();
      manualNow = read() + ms;
      return read();
    },
    set(date) {
      const target = typeof date === "number" ? date : date.getTime();
      requireMovable();
      if (!Number.isFinite(target) || target < read()) {
        throw new PlatformError(ErrorCode.INVALID_OPTIONS, `the clock cannot go backwards: ${new Date(read()).toISOString()} is later than the requested time`);
      }
      manualNow = target;
      return read();
    },
    setMode(next) {
      if (mode === "custom") throw new PlatformError(ErrorCode.INVALID_OPTIONS, "the emulator clock is caller-supplied: its mode cannot change");
      if (next === "manual" && mode !== "manual") manualNow = read();
      mode = next;
    },
  };
}

/** The last time {@link isoTime} formatted and its text: views format many records made in the same millisecond. */
let lastFormatted = { ms: Number.NaN, text: "" };

/** Epoch ms as an RFC 3339 UTC timestamp with millisecond precision (throws `RangeError` for an invalid time, as `Date` does). */
export function isoTime(ms: number): string {
  if (ms !== lastFormatted.ms) lastFormatted = { ms, text: new Date(ms).toISOString() };
  return lastFormatted.text;
}

/** A change asked of the clock (wire names): move forward, move to a time (epoch ms or RFC 3339), or switch mode. */
export type ClockChange = { advance_ms: number } | { set: string | number } | { mode: "manual" | "system" };

/** Applies a change to the clock; a change it refuses (backwards, a caller-supplied clock) is an `invalid` rule error. */
export function changeClock(clock: EmulatorClock, change: ClockChange): void {
  try {
    if ("advance_ms" in change) clock.advance(change.advance_ms);
    else if ("set" in change) clock.set(typeof change.set === "number" ? change.set : Date.parse(change.set));
    else clock.setMode(change.mode);
  } catch (err) {
    if (isPlatformError(err)) throw new RuleError("invalid", err.message);
    throw err;
  }
}
