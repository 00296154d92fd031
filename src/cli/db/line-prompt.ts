/** One-line text prompts of `svc db`: an empty answer takes the default. */
import { createInterface } from "node:readline";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CliIo } from "../io.js";

/**
 * Asks `question` on stderr and reads one line from stdin; an empty answer (or end of input)
 * returns `fallback`. An interrupt while waiting is `CLI_INTERRUPTED` (exit 130).
 */
export function askLine(io: CliIo, signal: AbortSignal, question: string, fallback: string): Promise<string> {
  if (signal.aborted) return Promise.reject(interrupted());
  io.stderr.write(`${question}${fallback === "" ? "" : ` (${fallback})`}: `);
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: io.stdin, terminal: false });
    let settled = false;
    const finish = (answer: string | null, error?: CliError): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      rl.close();
      if (error !== undefined) reject(error);
      else resolve(answer === null || answer.trim() === "" ? fallback : answer.trim());
    };
    const onAbort = (): void => finish(null, interrupted());
    signal.addEventListener("abort", onAbort, { once: true });
    rl.once("line", (line) => finish(line));
    rl.once("close", () => finish(null));
  });
}

function interrupted(): CliError {
  return new CliError(CliErrorCode.INTERRUPTED, "Interrupted; no database was created.");
}
