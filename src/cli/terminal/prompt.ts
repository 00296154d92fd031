import { createInterface } from "node:readline";
import type { CliIo } from "../io.js";
import type { Printed } from "../views/outside-text.js";

/** Whether an answer grants the request: only `y` or `yes`, in any case. */
export function isYes(answer: string | null): boolean {
  if (answer === null) return false;
  const word = answer.trim().toLowerCase();
  return word === "y" || word === "yes";
}

/** Reads one line from stdin; `null` on end of input. */
function readLine(io: CliIo): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, terminal: false });
    let settled = false;
    const finish = (value: string | null): void => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(value);
    };
    rl.once("line", (line) => finish(line));
    rl.once("close", () => finish(null));
  });
}

/**
 * Asks a yes/no question on stderr and reads the answer from stdin: `question` is printed text
 * whose last line is the question itself. The default is No: an empty line, any other word and
 * end of input all decline. Callers ask only interactive runs.
 */
export async function confirm(io: CliIo, question: Printed): Promise<boolean> {
  io.stderr.write(`${question.replace(/\n$/, "")} [y/N] `);
  const answer = await readLine(io);
  if (answer === null) io.stderr.write("\n");
  return isYes(answer);
}
