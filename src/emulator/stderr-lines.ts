/**
 * The emulator's log lines on stderr, written in batches. Each write to stderr is a system call
 * and a wake-up of whoever reads the pipe (a bench, a terminal), and on a busy machine that reader
 * then runs in the emulator's place: a line per request cost a write each, and a write per turn
 * of the event loop still about 250 per first apply. Lines now wait at most
 * {@link STDERR_LINES_DELAY_MS} (or until {@link STDERR_LINES_BYTES} wait) and leave in one write.
 * Order is kept: anything else the emulator writes to stderr goes through {@link writeStderrNow},
 * which writes the waiting lines first, and the waiting lines are written when the process exits.
 */

/** How long a log line waits, at most, before it is written. */
export const STDERR_LINES_DELAY_MS = 50;
/** Waiting text (in UTF-16 code units) that is written at once, whatever its age. */
export const STDERR_LINES_BYTES = 32 * 1024;

let pending = "";
let timer: NodeJS.Timeout | undefined;
let exitHooked = false;

/** Writes the waiting lines now, in one write; nothing when none wait. */
export function flushStderrLines(): void {
  if (timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (pending === "") return;
  const text = pending;
  pending = "";
  process.stderr.write(text);
}

/**
 * Queues `text` (whole lines, each ending in `\n`) for one write within {@link STDERR_LINES_DELAY_MS},
 * or at once when {@link STDERR_LINES_BYTES} wait. The timer holds no process open.
 */
export function writeStderrLines(text: string): void {
  pending += text;
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", flushStderrLines);
  }
  if (pending.length >= STDERR_LINES_BYTES) flushStderrLines();
  else if (timer === undefined) {
    timer = setTimeout(flushStderrLines, STDERR_LINES_DELAY_MS);
    timer.unref();
  }
}

/** Writes `text` to stderr now, after the lines still waiting, so the order on stderr is the order written. */
export function writeStderrNow(text: string): void {
  flushStderrLines();
  process.stderr.write(text);
}
