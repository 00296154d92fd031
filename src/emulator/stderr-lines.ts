/**
 * The emulator's log lines on stderr, written once per turn of the event loop. A request log line
 * per request cost a write to stderr each (a system call, and a wake-up of whoever reads the pipe);
 * the lines of one turn now leave in one write, on the next check phase. Order is kept: anything
 * else the emulator writes to stderr goes through {@link writeStderrNow}, which writes the waiting
 * lines first, and the waiting lines are written when the process exits.
 */

let pending = "";
let scheduled = false;
let exitHooked = false;

/** Writes the waiting lines now, in one write; nothing when none wait. */
export function flushStderrLines(): void {
  scheduled = false;
  if (pending === "") return;
  const text = pending;
  pending = "";
  process.stderr.write(text);
}

/** Queues `text` (whole lines, each ending in `\n`) for one write on the event loop's next check phase. */
export function writeStderrLines(text: string): void {
  pending += text;
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", flushStderrLines);
  }
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushStderrLines);
}

/** Writes `text` to stderr now, after the lines still waiting, so the order on stderr is the order written. */
export function writeStderrNow(text: string): void {
  flushStderrLines();
  process.stderr.write(text);
}
