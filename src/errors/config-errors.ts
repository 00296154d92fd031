import { ErrorCode } from "./codes.js";
import { PlatformError } from "./platform-error.js";

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

/** `details` of a {@link ConfigValidationError}: every issue, the file and the branch it was found for. */
export type ConfigValidationDetails = { issues: ConfigIssue[]; file: string | undefined; branchName: string | undefined };

/**
 * An invalid policy or branch tuning (`PLATFORM_CONFIG_INVALID`). Lists every issue found in
 * the stage that failed, each with its path.
 */
export class ConfigValidationError extends PlatformError<ConfigValidationDetails> {
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

/**
 * `details` of a {@link ConfigLoadError}: the fields of the failure that happened, each absent
 * otherwise. The policy file is `file` (`null` when the policy was built in code).
 */
export type ConfigLoadDetails = {
  file?: string | null;
  /** No file found: every path checked, where and why the search stopped. */
  searched?: string[];
  stoppedAt?: string;
  stopReason?: "git" | "stopAt" | "root";
  /** The directory a search started in, or an explicit `path` resolved against it. */
  cwd?: string;
  path?: string;
  /** What an explicit `path` turned out to be. */
  problem?: "missing" | "directory" | "other";
  /** A package evaluation needs that could not be loaded (`jiti`, `esbuild`). */
  package?: string;
  /** Where an exception was thrown, or a syntax error is, as `file:line:column`. */
  location?: string;
  /** The module that uses top-level `await`. */
  awaitIn?: string;
  /** The exported policy is invalid: every issue (the `ConfigValidationError` is the `cause`). */
  issues?: ConfigIssue[];
  /** A limit hit while evaluating: the phase, the time limit, the exit call or the keys added to `Object.prototype`. */
  phase?: "module" | "branch" | "check";
  timeoutMs?: number;
  call?: string;
  prototypeKeys?: string[];
};

/** The policy file could not be found, evaluated or validated (`PLATFORM_CONFIG_LOAD_FAILED`). */
export class ConfigLoadError extends PlatformError<ConfigLoadDetails> {
  constructor(message: string, details: ConfigLoadDetails = {}, cause?: unknown) {
    super(ErrorCode.CONFIG_LOAD_FAILED, message, { details, cause });
  }
}

/** How an issue's field is shown: its path, or `top level` for the exported object itself. */
export function issueFieldLabel(path: string): string {
  return path === "" ? "top level" : path;
}

/** Renders the header and one `  - field: message` line per issue. */
export function formatIssues(issues: readonly ConfigIssue[], context: ConfigValidationContext = {}): string {
  const where = context.file ? ` in ${context.file}` : "";
  const branch = context.branchName === undefined ? "" : ` (branch "${context.branchName}")`;
  const lines = issues.map((i) => `  - ${issueFieldLabel(i.path)}: ${i.message}`);
  return [`Invalid policy${where}${branch}:`, ...lines].join("\n");
}
