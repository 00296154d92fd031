/**
 * The process edges the CLI talks to, injected so commands can run in tests without a real
 * terminal. `main` builds one from `process`.
 */

/** A stream the CLI writes to. */
export interface OutputStream {
  write(text: string): unknown;
  /** Writes terminal control sequences (cursor moves, erases) the CLI itself made; default `write`. */
  control?(sequence: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** The stream answers are read from. */
export interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** Everything a command needs from the process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: InputStream;
  /** The environment; `--env` files add to it (never overwriting). */
  env: Record<string, string | undefined>;
  cwd: string;
  /** Epoch milliseconds. */
  now(): number;
}

/** The real process as a {@link CliIo}. */
export function processIo(): CliIo {
  // A reader that went away (`svc config plan | head`) must not crash a running apply.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE" && err.code !== "ERR_STREAM_DESTROYED") throw err;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}

/** Stdin and stderr are TTYs and `CI` is unset or empty. */
export function isInteractive(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true && (io.env.CI ?? "") === "";
}

/**
 * Colour decision: `--no-color` and a non-empty `NO_COLOR` always win; then a
 * non-empty `FORCE_COLOR` other than `0` turns it on; else off for `TERM=dumb` or a non-TTY.
 */
export function shouldUseColor(options: { noColorFlag: boolean; env: CliIo["env"]; isTTY: boolean }): boolean {
  const { noColorFlag, env, isTTY } = options;
  if (noColorFlag || (env.NO_COLOR ?? "") !== "") return false;
  const force = env.FORCE_COLOR ?? "";
  if (force !== "" && force !== "0") return true;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

/** Whether the locale promises UTF-8 (LC_ALL, then LC_CTYPE, then LANG); else ASCII glyphs. */
export function supportsUnicode(env: CliIo["env"]): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  return /utf-?8/i.test(locale);
}
