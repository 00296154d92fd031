import { afterEach, describe, expect, it, vi } from "vitest";
import { STDERR_LINES_BYTES, STDERR_LINES_DELAY_MS, flushStderrLines, writeStderrLines, writeStderrNow } from "../../../src/emulator/stderr-lines.js";

/** What reaches `process.stderr.write`, one string per call. */
function captureWrites(): string[] {
  const writes: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    writes.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  });
  return writes;
}

afterEach(() => {
  flushStderrLines();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the emulator's log lines on stderr", () => {
  it("writes the lines that wait together in one write, once the first has waited the delay", () => {
    vi.useFakeTimers();
    const writes = captureWrites();
    writeStderrLines("first\n");
    vi.advanceTimersByTime(STDERR_LINES_DELAY_MS - 1);
    writeStderrLines("second\n");
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["first\nsecond\n"]);
    writeStderrLines("third\n");
    vi.advanceTimersByTime(STDERR_LINES_DELAY_MS);
    expect(writes).toEqual(["first\nsecond\n", "third\n"]);
  });

  it("writes at once when the waiting text reaches its size limit, and does not write it again", () => {
    vi.useFakeTimers();
    const writes = captureWrites();
    const line = `${"x".repeat(1023)}\n`;
    const lines = Math.ceil(STDERR_LINES_BYTES / line.length);
    for (let i = 0; i < lines; i++) writeStderrLines(line);
    expect(writes).toEqual([line.repeat(lines)]);
    vi.advanceTimersByTime(STDERR_LINES_DELAY_MS);
    expect(writes).toHaveLength(1);
  });

  it("writes the waiting lines before a line written now, so stderr keeps the order they were written in", () => {
    vi.useFakeTimers();
    const writes = captureWrites();
    writeStderrLines("GET /api/v2/projects 200\n");
    writeStderrNow("svc emulator: stopping\n");
    writeStderrLines("later\n");
    vi.advanceTimersByTime(STDERR_LINES_DELAY_MS);
    expect(writes).toEqual(["GET /api/v2/projects 200\n", "svc emulator: stopping\n", "later\n"]);
  });

  it("waits on a timer that holds no process open", () => {
    const writes = captureWrites();
    const timers = vi.spyOn(globalThis, "setTimeout");
    writeStderrLines("waiting\n");
    expect(timers).toHaveBeenCalledTimes(1);
    const timer = timers.mock.results[0]?.value as NodeJS.Timeout | undefined;
    expect(timer?.hasRef()).toBe(false);
    flushStderrLines();
    expect(writes).toEqual(["waiting\n"]);
  });

  it("writes nothing when no line waits", () => {
    vi.useFakeTimers();
    const writes = captureWrites();
    flushStderrLines();
    vi.advanceTimersByTime(STDERR_LINES_DELAY_MS);
    expect(writes).toEqual([]);
  });
});
