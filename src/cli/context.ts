import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import type { EnginePort } from "./engine-port.js";
import { isInteractive, shouldUseColor, supportsUnicode, type CliIo } from "./io.js";
import { Progress, type ProgressMode } from "./terminal/progress.js";
import { confirm } from "./terminal/prompt.js";
import { requestLogLine } from "./terminal/request-log.js";
import { Scrubber } from "./terminal/scrub.js";
import { printedLines, type Printed } from "./views/outside-text.js";
import { COLOR_STYLE, PLAIN_STYLE, type Style } from "./views/view-model.js";

/** Flags every command takes. */
export interface CommonFlags {
  /** commander's `--no-color` sets this to false. */
  color?: boolean;
  verbose?: boolean;
  quiet?: boolean;
}

/** Options of {@link CommandContext}. */
export interface CommandContextOptions {
  io: CliIo;
  loadEngine: () => Promise<EnginePort>;
  signal: AbortSignal;
}

/**
 * What a command runs with: scrubbed streams, colour and interactivity decisions, the lazily
 * loaded engine, the interrupt signal and progress. The only place commands print through.
 */
export class CommandContext {
  /** Known secrets; every write goes through it. */
  readonly scrubber = new Scrubber();
  readonly io: CliIo;
  readonly signal: AbortSignal;
  readonly #loadEngine: () => Promise<EnginePort>;
  readonly #rawStdout: CliIo["stdout"];
  #engine: Promise<EnginePort> | undefined;
  #flags: CommonFlags = {};
  /** Set once a `--json` command printed its document, so a late error adds none. */
  documentPrinted = false;
  /** The command name a `--json` error document names. */
  jsonCommand: string | undefined;

  constructor(options: CommandContextOptions) {
    this.signal = options.signal;
    this.#rawStdout = options.io.stdout;
    this.#loadEngine = options.loadEngine;
    const scrubbed = { stdout: this.scrubber.wrap(options.io.stdout), stderr: this.scrubber.wrap(options.io.stderr) };
    this.io = { ...options.io, ...scrubbed };
  }

  /** Records the common flags of the command being run. */
  setFlags(flags: CommonFlags): void {
    this.#flags = flags;
    if (flags.verbose === true && flags.quiet === true) {
      throw new CliError(CliErrorCode.USAGE, "--quiet and --verbose cannot be used together.", { hint: "Drop one of them." });
    }
  }

  /** `--verbose`: cause chains and one line per HTTP request. */
  get verbose(): boolean {
    return this.#flags.verbose === true;
  }

  /** `--quiet`: only the target line, the summary or result line, and errors. */
  get quiet(): boolean {
    return this.#flags.quiet === true;
  }

  /** Interactive: stdin and stderr are TTYs and `CI` is unset. */
  get interactive(): boolean {
    return isInteractive(this.io);
  }

  /** Styling for a stream, colour rules: `--no-color` and `NO_COLOR` win,
   * then `FORCE_COLOR`, else off for `TERM=dumb` or a stream that is not a TTY. */
  styleFor(stream: "stdout" | "stderr"): Style {
    const isTTY = (stream === "stdout" ? this.io.stdout.isTTY : this.io.stderr.isTTY) === true;
    return shouldUseColor({ noColorFlag: this.#flags.color === false, env: this.io.env, isTTY }) ? COLOR_STYLE : PLAIN_STYLE;
  }

  /** The engine, loaded on first use. */
  engine(): Promise<EnginePort> {
    this.#engine ??= this.#loadEngine();
    return this.#engine;
  }

  /**
   * Writes the command's main output: a rendered view, or lines, each printed as one line
   * (outside values in them escaped; see `printedLines`).
   */
  out(text: Printed | readonly string[]): void {
    this.io.stdout.write(asPrinted(text));
  }

  /**
   * Writes a requested secret (a connection string) to stdout unscrubbed: the one output
   * allowed to carry a secret (`svc branch connection-string`). Never use it for anything else.
   */
  outSecret(text: string): void {
    this.#rawStdout.write(text);
  }

  /** Writes to stderr (echo, prompts, warnings, errors): a rendered view, or lines. */
  err(text: Printed | readonly string[]): void {
    this.io.stderr.write(asPrinted(text));
  }

  /** Writes to stderr unless `--quiet`: a rendered view, or lines. */
  info(text: Printed | readonly string[]): void {
    if (!this.quiet) this.io.stderr.write(asPrinted(text));
  }

  /** A progress display on stderr: live on an interactive terminal, plain lines elsewhere, none with `--quiet`. */
  progress(): Progress {
    const live = this.io.stderr.isTTY === true && (this.io.env.CI ?? "") === "";
    const mode: ProgressMode = this.quiet ? "off" : live ? "live" : "plain";
    return new Progress({ stream: this.io.stderr, mode, unicode: supportsUnicode(this.io.env), now: () => this.io.now(), verbose: this.verbose });
  }

  /**
   * An `onEvent` for operations shown without progress (status, pull): with `--verbose`, one
   * stderr line per request from the engine's `read`/`retry` events; otherwise nothing.
   */
  requestLog(): (event: unknown) => void {
    return (event) => {
      const line = this.verbose ? requestLogLine(event) : undefined;
      if (line !== undefined) this.err([line]);
    };
  }

  /**
   * Asks a yes/no question (default No): `lines` each printed as one line, the last one the
   * question. An interrupt while waiting is `CLI_INTERRUPTED`.
   */
  async ask(lines: readonly string[]): Promise<boolean> {
    if (this.signal.aborted) throw interrupted();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(interrupted());
      this.signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([confirm(this.io, printedLines(lines)), aborted]);
    } finally {
      if (onAbort !== undefined) this.signal.removeEventListener("abort", onAbort);
    }
  }
}

function asPrinted(text: Printed | readonly string[]): Printed {
  return typeof text === "string" ? text : printedLines(text);
}

function interrupted(): CliError {
  return new CliError(CliErrorCode.INTERRUPTED, "Interrupted; nothing was changed.");
}
