import { CommanderError } from "commander";
import { CliErrorCode } from "../errors/cli-errors.js";
import { CommandContext } from "./context.js";
import { loadEngine, type EnginePort } from "./engine-port.js";
import { processIo, type CliIo } from "./io.js";
import { runGuarded } from "./process-guard.js";
import { buildProgram, usageError, usageFor } from "./program.js";
import { printedDocument } from "./views/outside-text.js";

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
  /** Loads the error views; by default their modules. */
  loadErrorViews?: () => Promise<ErrorViews>;
}

/** What printing an error needs: the error view and the JSON document writer. */
export interface ErrorViews {
  describeError: typeof import("./views/error-view.js").describeError;
  exitCodeFor: typeof import("./views/error-view.js").exitCodeFor;
  renderErrorText: typeof import("./views/error-view.js").renderErrorText;
  toJsonError: typeof import("./views/error-view.js").toJsonError;
  stringifyDocument: typeof import("./views/json-plan.js").stringifyDocument;
}

async function importErrorViews(): Promise<ErrorViews> {
  const [view, json] = await Promise.all([import("./views/error-view.js"), import("./views/json-plan.js")]);
  return { ...view, stringifyDocument: json.stringifyDocument };
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

/**
 * Prints `err` and returns its exit code. The views are loaded when a command starts (not for
 * `--help` or `--version`): at the error, the process may have no file descriptor left to load
 * a module with (an open-file limit met by the apply's sockets). When they still cannot load,
 * a plain block names the error and why the full view is missing, and never throws.
 */
async function reportError(ctx: CommandContext, err: unknown, views: Promise<ErrorViews>): Promise<number> {
  let loaded: ErrorViews;
  try {
    loaded = await views;
  } catch (loadFailure) {
    return reportWithoutViews(ctx, err, loadFailure);
  }
  const { describeError, exitCodeFor, renderErrorText, toJsonError, stringifyDocument } = loaded;
  const view = describeError(err);
  // A No to a question is the user's choice, not a failure: one plain line (exit 5 still).
  ctx.err(view.code === CliErrorCode.ABORTED ? [view.message] : renderErrorText(view, ctx.verbose));
  if (ctx.jsonCommand !== undefined && !ctx.documentPrinted) {
    ctx.out(stringifyDocument({ formatVersion: 1, command: ctx.jsonCommand, error: toJsonError(view) }));
  }
  return ctx.signal.aborted ? 130 : exitCodeFor(err);
}

/** The first line of an error's message, or of its text. */
function firstLine(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value);
  return text.split("\n")[0] ?? "";
}

/** The code an error carries when it is one of ours (`PLATFORM_…`, `CLI_…`), else `null`. */
function ownCodeOf(err: unknown): string | null {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^(?:PLATFORM|CLI)_[A-Z0-9_]{1,60}$/.test(code) ? code : null;
}

/** A system error's code (`EMFILE`), for a cause; `null` otherwise. */
function systemCodeOf(err: unknown): string | null {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : null;
}

/** The error as plain lines (and its JSON document), when the error views could not be loaded: exit 1. */
function reportWithoutViews(ctx: CommandContext, err: unknown, loadFailure: unknown): number {
  // As the error view names them: anything not ours is an unexpected (internal) error.
  const own = ownCodeOf(err);
  const code = own ?? CliErrorCode.INTERNAL;
  const message = own === null ? `Unexpected error: ${firstLine(err)}` : firstLine(err);
  const why = firstLine(loadFailure);
  const lines = [`error ${code}: ${message}`, `  the full error view could not be loaded: ${why}`];
  if (/\bE[MN]FILE\b/.test(why)) lines.push("  hint: The process ran out of open files (EMFILE): raise the open-file limit (ulimit -n), then run svc config plan to see the branch's state and run the command again.");
  ctx.err(lines);
  if (ctx.jsonCommand !== undefined && !ctx.documentPrinted) {
    const error = { code, message, requestId: null, hint: null, causes: [{ code: systemCodeOf(loadFailure), message: why }] };
    ctx.out(printedDocument(`${JSON.stringify({ formatVersion: 1, command: ctx.jsonCommand, error }, null, 2)}\n`));
  }
  return ctx.signal.aborted ? 130 : 1;
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
  const loadViews = options.loadErrorViews ?? importErrorViews;
  let views: Promise<ErrorViews> | undefined;
  const errorViews = (): Promise<ErrorViews> => {
    views ??= loadViews();
    // Awaited only on the error path; a load that failed is reported there.
    views.catch(() => undefined);
    return views;
  };
  program.hook("preAction", () => {
    errorViews();
  });
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
      return await reportError(ctx, usageError(err.message, usageFor(program, argv)), errorViews());
    }
    return await reportError(ctx, err, errorViews());
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
