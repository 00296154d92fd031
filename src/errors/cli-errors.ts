/** The codes only the `svc` command raises; library errors use `ErrorCode`. */
export const CliErrorCode = {
  USAGE: "CLI_USAGE",
  MISSING_PROJECT: "CLI_MISSING_PROJECT",
  ENV_FILE_NOT_FOUND: "CLI_ENV_FILE_NOT_FOUND",
  FILE_EXISTS: "CLI_FILE_EXISTS",
  DELETE_REFUSED: "CLI_DELETE_REFUSED",
  BRANCH_AMBIGUOUS: "CLI_BRANCH_AMBIGUOUS",
  CONFIRMATION_REQUIRED: "CLI_CONFIRMATION_REQUIRED",
  ABORTED: "CLI_ABORTED",
  PLAN_UNREADABLE: "CLI_PLAN_UNREADABLE",
  GIT_UNAVAILABLE: "CLI_GIT_UNAVAILABLE",
  LOCAL_WRITE_REFUSED: "CLI_LOCAL_WRITE_REFUSED",
  LOCAL_WRITE_FAILED: "CLI_LOCAL_WRITE_FAILED",
  SUMMARY_REFUSED: "CLI_SUMMARY_REFUSED",
  INTERRUPTED: "CLI_INTERRUPTED",
  INTERNAL: "CLI_INTERNAL",
} as const;

/** One of the values of {@link CliErrorCode}. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/**
 * An error of the `svc` command itself (code `CLI_*`): a usage mistake, a refused confirmation,
 * an unreadable saved plan. Carries the hint the CLI prints under the message. Never secrets.
 */
export class CliError extends Error {
  readonly code: CliErrorCode;
  /** What to do next, printed as `hint:`. */
  readonly hint: string | undefined;
  /** JSON-safe facts, e.g. `{ path }`. */
  readonly details: { readonly [key: string]: unknown };

  constructor(code: CliErrorCode, message: string, options: { hint?: string; details?: object; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CliError";
    this.code = code;
    this.hint = options.hint;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }
}

/** Whether `err` is a {@link CliError}, optionally with the given code. */
export function isCliError(err: unknown, code?: CliErrorCode): err is CliError {
  if (!(err instanceof CliError)) return false;
  return code === undefined || err.code === code;
}
