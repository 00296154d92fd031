import { afterEach, describe, expect, it, vi } from "vitest";
import { flushStderrLines, writeStderrLines, writeStderrNow } from "../../../src/emulator/stderr-lines.js";

/** What reaches `process.stderr.write`, one string per call. */
function captureWrites(): string[] {
  const writes: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    writes.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  });
  return writes;
}

const nextCheckPhase = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  flushStderrLines();
  vi.restoreAllMocks();
});

describe("the emulator's log lines on stderr", () => {
  it("writes the lines of one turn of the event loop in one write, on the next check phase", async () => {
    const writes = captureWrites();
    writeStderrLines("first\n");
    writeStderrLines("second\n");
    expect(writes).toEqual([]);
    await nextCheckPhase();
    expect(writes).toEqual(["first\nsecond\n"]);
  });

  it("writes the waiting lines before a line written now, so stderr keeps the order they were written in", async () => {
    const writes = captureWrites();
    writeStderrLines("GET /api/v2/projects 200\n");
    writeStderrNow("svc emulator: stopping\n");
    writeStderrLines("later\n");
    await nextCheckPhase();
    expect(writes).toEqual(["GET /api/v2/projects 200\n", "svc emulator: stopping\n", "later\n"]);
  });

  it("writes nothing when no line waits", async () => {
    const writes = captureWrites();
    flushStderrLines();
    await nextCheckPhase();
    expect(writes).toEqual([]);
  });
});
