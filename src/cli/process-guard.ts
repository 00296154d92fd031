/**
 * The `svc` process around one command. A policy is code run in this process: its leftovers
 * (timers, intervals, child processes, rejected promises, exceptions thrown from callbacks)
 * must never keep the CLI alive after the command is done, crash it in the middle of an apply,
 * or change the exit code the command chose (7 when something was applied, …). So while the
 * command runs, an uncaught exception or unhandled rejection is recorded instead of ending the
 * process; afterwards one warning names the first of them, the output is flushed, and the
 * process exits with the command's code without waiting for anything left behind.
 */
import { escapeUnsafeText } from "../rules/visible-text.js";

/** What the guard needs from the process: its two streams and a way to end it. */
export interface GuardedProcess {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  exit: (code: number) => never;
}

/** Exit code when the command itself failed outside its own error handling (a bug). */
const INTERNAL_ERROR_EXIT = 1;

/**
 * Runs `command` (which returns the exit code), then ends the process with that code. Stray
 * errors from code the policy left running are reported once and never change the code.
 */
export async function runGuarded(command: () => Promise<number>, proc: GuardedProcess = defaultProcess()): Promise<never> {
  const stray: unknown[] = [];
  const record = (err: unknown): void => {
    stray.push(err);
  };
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  let code: number;
  try {
    code = await command();
  } catch (err) {
    stray.unshift(err);
    code = INTERNAL_ERROR_EXIT;
  }
  if (stray.length > 0) proc.stderr.write(strayWarning(stray));
  await Promise.all([flushed(proc.stdout), flushed(proc.stderr)]);
  return proc.exit(code);
}

function defaultProcess(): GuardedProcess {
  return { stdout: process.stdout, stderr: process.stderr, exit: (code) => process.exit(code) };
}

/** One line about the first stray error (and how many more), escaped and short. */
function strayWarning(stray: readonly unknown[]): string {
  const first = stray[0];
  const text = first instanceof Error ? `${first.name}: ${first.message}` : String(first);
  const line = escapeUnsafeText(text.split("\n")[0] ?? "");
  const shortLine = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  const more = stray.length > 1 ? ` (and ${stray.length - 1} more)` : "";
  return `warning: code left running by the policy or a module it imports failed after loading, and was ignored: ${shortLine}${more}\n`;
}

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write("", () => resolve());
  });
}
