import { ErrorCode } from "./codes.js";
import { PlatformError, type ErrorDetails } from "./platform-error.js";

/** One validation problem: the exact path in the policy and what is wrong there. */
export interface ConfigIssue {
  /** Dotted path with `[i]` indexes and `["key"]` for unusual keys, e.g. `functions.api.env.KEY`. */
  path: string;
  message: string;
}

/** Where a validation failure happened, used to build the header line. */
export interface ConfigValidationContext {
  /** The policy file, when it was loaded from one. */
  file?: string;
  /** The branch whose closure was evaluated, for tuning issues. */
  branchName?: string;
}

/**
 * An invalid policy or branch tuning (`PLATFORM_CONFIG_INVALID`). Lists every issue found in
 * the stage that failed, each with its path.
 */
export class ConfigValidationError extends PlatformError {
  /** Every issue, in the order they were found. */
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], context: ConfigValidationContext = {}, cause?: unknown) {
    super(ErrorCode.CONFIG_INVALID, formatIssues(issues, context), {
      details: { issues: issues.map((i) => ({ ...i })), file: context.file, branchName: context.branchName },
      cause,
    });
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }
}

/** The policy file could not be found, evaluated or validated (`PLATFORM_CONFIG_LOAD_FAILED`). */
export class ConfigLoadError extends PlatformError {
  constructor(message: string, details: ErrorDetails = {}, cause?: unknown) {
    super(ErrorCode.CONFIG_LOAD_FAILED, message, { details, cause });
  }
}

/** Renders the header and one `  - path: message` line per issue. */
export function formatIssues(issues: readonly ConfigIssue[], context: ConfigValidationContext = {}): string {
  const where = context.file ? ` in ${context.file}` : "";
  const branch = context.branchName === undefined ? "" : ` (branch "${context.branchName}")`;
  const lines = issues.map((i) => `  - ${i.path === "" ? "(policy)" : i.path}: ${i.message}`);
  return [`Invalid policy${where}${branch}:`, ...lines].join("\n");
}
