import { CommanderError } from "commander";
import { CliErrorCode } from "../errors/cli-errors.js";
import { CommandContext } from "./context.js";
import { loadEngine, type EnginePort } from "./engine-port.js";
import { processIo, type CliIo } from "./io.js";
import { runGuarded } from "./process-guard.js";
import { buildProgram, usageError, usageFor } from "./program.js";

/** The oldest Node.js the CLI runs on. */
const MIN_NODE: readonly [number, number] = [20, 19];

/** The message for an older Node.js, or `undefined` when `version` is recent enough. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return `svc-config needs Node.js 20.19 or later (found ${version.replace(/^v/, "")}); upgrade Node.js\n`;
}

/** Test seams of {@link main}. */
export interface MainOptions {
  io?: CliIo;
  loadEngine?: () => Promise<EnginePort>;
  /** An interrupt source; by default the process's SIGINT (first aborts, second exits 130). */
  signal?: AbortSignal;
}

function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write("\nInterrupted: finishing what is in flight, starting nothing new (Ctrl-C again to exit now).\n");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}

/** Loads the error views only on the error path, so a command that succeeds never pays for them. */
async function reportError(ctx: CommandContext, err: unknown): Promise<number> {
  const { describeError, exitCodeFor, renderErrorText, toJsonError } = await import("./views/error-view.js");
  const { stringifyDocument } = await import("./views/json-plan.js");
  const view = describeError(err);
  // A No to a question is the user's choice, not a failure: one plain line (exit 5 still).
  ctx.err(view.code === CliErrorCode.ABORTED ? [view.message] : renderErrorText(view, ctx.verbose));
  if (ctx.jsonCommand !== undefined && !ctx.documentPrinted) {
    ctx.out(stringifyDocument({ formatVersion: 1, command: ctx.jsonCommand, error: toJsonError(view) }));
  }
  return ctx.signal.aborted ? 130 : exitCodeFor(err);
}

/**
 * Entry point of the `svc` bin (cli.md): checks the Node.js version, parses `argv` with
 * commander, runs the command and maps any error to its exit code. Returns the exit code.
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem !== undefined) {
    process.stderr.write(problem);
    return 1;
  }
  const interrupt = options.signal === undefined ? interruptSignal() : { signal: options.signal, dispose: () => undefined };
  const ctx = new CommandContext({ io: options.io ?? processIo(), loadEngine: options.loadEngine ?? loadEngine, signal: interrupt.signal });
  let exitCode = 0;
  const program = buildProgram({ ctx, setExitCode: (code) => (exitCode = code) });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    // `svc help config plan` shows the help of `config plan`, however deep the command is.
    const args = argv[0] === "help" && argv.length > 1 ? [...argv.slice(1), "--help"] : [...argv];
    await program.parseAsync(args, { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === "commander.helpDisplayed" || err.code === "commander.version") return 0;
      if (err.code === "commander.help") return 0;
      if (argv.includes("--json")) ctx.jsonCommand = usageFor(program, argv).split(" [")[0]?.replace(/^svc /, "").replace(/^config /, "").split(" <")[0];
      return await reportError(ctx, usageError(err.message, usageFor(program, argv)));
    }
    return await reportError(ctx, err);
  } finally {
    interrupt.dispose();
  }
}

/**
 * What the `svc` bin runs: {@link main} inside the process guard (`process-guard.ts`), which
 * ends the process with the command's exit code as soon as the command is done.
 */
export function runCli(argv: readonly string[]): Promise<never> {
  return runGuarded(() => main(argv));
}
