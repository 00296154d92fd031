import type { CheckResult } from "../model/check-result.js";
import type { PushResult } from "../model/plan.js";
import { ErrorCode } from "./codes.js";
import { PlatformError } from "./platform-error.js";

/** `details` of a {@link CheckFailedError}: the failing checks, and the plan they ran on. */
export type CheckFailedDetails = {
  /** The mandatory checks that reported a violation or failed themselves. */
  checks: readonly CheckResult[];
  branchName: string;
  /** The plan (every check's result in `result.checks`); absent before a new branch's plan exists. */
  result: PushResult | undefined;
};

/** How many violations a message lists before it says how many more there are. */
const LISTED = 10;

/** Outside text on one line: a line break inside a check's message cannot start another bullet. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A mandatory check reported a violation, or a check failed (`PLATFORM_CHECK_FAILED`): the
 * plan is refused before any confirmation or mutation. Nothing was changed.
 */
export class CheckFailedError extends PlatformError<CheckFailedDetails> {
  readonly checks: readonly CheckResult[];

  constructor(checks: readonly CheckResult[], branchName: string, result?: PushResult) {
    const lines = checks.flatMap((c) => (c.error !== undefined ? [`check ${c.name} failed: ${c.error}`] : c.violations.map((v) => `check ${c.name}: ${v.address === undefined ? "" : `${v.address}: `}${v.message}`))).map(oneLine);
    const more = lines.length > LISTED ? [`… and ${lines.length - LISTED} more`] : [];
    super(
      ErrorCode.CHECK_FAILED,
      [
        `Cannot apply to branch "${branchName}": ${checks.length} mandatory check(s) failed; nothing was changed.`,
        ...lines.slice(0, LISTED).map((l) => `  - ${l}`),
        ...more.map((l) => `  - ${l}`),
      ].join("\n"),
      { details: { checks, branchName, result } },
    );
    this.checks = checks;
  }
}
