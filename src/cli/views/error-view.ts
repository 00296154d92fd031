import { isCliError } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { ConfigValidationError, issueFieldLabel } from "../../errors/config-errors.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { JsonError } from "./json-schema.js";
import { printedLines, type Printed } from "./outside-text.js";
import { resolutionFor } from "./resolutions.js";

/** An error reduced to what the CLI prints. */
export interface ErrorView {
  code: string;
  /** One line. */
  message: string;
  requestId: string | null;
  hint: string | null;
  /** Validation issues, conflicts or failing functions: the lines of each (a conflict's second says how to resolve it). */
  bullets: string[][];
  causes: { code: string | null; message: string }[];
  stack: string | null;
}

type Details = { readonly [key: string]: unknown };

function detailsOf(err: unknown): Details {
  if (typeof err === "object" && err !== null && "details" in err) {
    const details = (err as { details: unknown }).details;
    if (typeof details === "object" && details !== null) return details as Details;
  }
  return {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function record(value: unknown): Details {
  return typeof value === "object" && value !== null ? (value as Details) : {};
}

const STATIC_HINTS: Record<string, string> = {
  CLI_MISSING_PROJECT: "Pass --project-id or set SVC_PROJECT_ID.",
  [ErrorCode.MISSING_API_KEY]: "Set SVC_API_KEY or pass --api-key.",
  [ErrorCode.UNAUTHORIZED]: "The key was rejected: check SVC_API_KEY or --api-key.",
  [ErrorCode.FORBIDDEN]: "The key cannot see this project: check --project-id and the key's access.",
  [ErrorCode.NOT_FOUND]: "The key cannot see this project, or it does not exist: check --project-id.",
  [ErrorCode.INVALID_OPTIONS]: "Fix the named option and run the command again.",
  [ErrorCode.CONFIG_LOAD_FAILED]: "Run svc config init to create svc.ts, or pass --config PATH.",
  [ErrorCode.BUNDLE_FAILED]: "Fix the listed functions, then run svc config validate.",
  [ErrorCode.FEATURE_UNAVAILABLE]: "Use a region or plan that offers the feature, or claim the project first.",
  [ErrorCode.NETWORK_ERROR]: "Check --api-host and your network or proxy settings, or retry later.",
  [ErrorCode.TIMEOUT]: "Check --api-host, or retry later.",
  [ErrorCode.LOCKED]: "Another operation is running on the project; retry when it finishes.",
  [ErrorCode.RATE_LIMITED]: "The platform is rate limiting requests; retry later.",
  [ErrorCode.SERVER_ERROR]: "The platform failed; retry later.",
  [ErrorCode.API_ERROR]: "Check --api-host, or retry later.",
  [ErrorCode.OUTCOME_UNKNOWN]: "The request may have been applied; run svc config plan to see the current state.",
  [ErrorCode.PUSH_CONFLICT]: "Resolve each conflict as listed, then run svc config plan again.",
  [ErrorCode.PUSH_ABORTED]: "The branch changed while applying; re-run svc config plan and review it.",
  [ErrorCode.STALE_PLAN]: "Run svc config plan --out again and apply the new plan.",
  [ErrorCode.APPLY_FAILED]: "Run svc config plan to see what remains.",
  [ErrorCode.CANCELLED]: "Run svc config plan to see what remains.",
  [ErrorCode.CHECK_FAILED]: "Change the policy (or the plan) until the listed checks pass; a check that failed itself is fixed in the checks file. Nothing was changed.",
  [ErrorCode.HOOK_FAILED]: "Fix the hook in svc.ts (its output is above, prefixed [hook …]) and run the command again.",
  [ErrorCode.CONFLICT]: "The platform refused the change because of the current state; check the message above.",
  CLI_ABORTED: "Nothing changed.",
  CLI_INTERRUPTED: "Run svc config plan to see the current state.",
  CLI_INTERNAL: "This is a bug: re-run with --verbose and report it.",
};

/** The hint when the process ran out of file descriptors: the limit to raise, and how to go on. */
export const OUT_OF_FILES_HINT = "The process ran out of open files (EMFILE): raise the open-file limit (ulimit -n), then run svc config plan to see the branch's state and run the command again.";

/** The system codes of a process (EMFILE) or a system (ENFILE) out of file descriptors. */
const OUT_OF_FILES_CODES: ReadonlySet<unknown> = new Set(["EMFILE", "ENFILE"]);

/**
 * Whether `err` or a cause of it is a process out of file descriptors, or a failed change's or
 * function's error names one (their JSON form keeps no cause: `connect EMFILE …`).
 */
function ranOutOfFiles(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 10 && typeof current === "object" && current !== null; depth++) {
    if (OUT_OF_FILES_CODES.has((current as { code?: unknown }).code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  const details = detailsOf(err);
  // A failed apply's changes and a failed bundling's functions keep their errors as text.
  const texts = [...array(record(details.result).failed).map((f) => record(record(f).error).message), ...array(details.failures).map((f) => record(f).message)];
  return texts.some((text) => /\bE[MN]FILE\b/.test(String(text ?? "")));
}

function hintFor(err: unknown, code: string, details: Details): string | null {
  if (isCliError(err) && err.hint !== undefined) return err.hint;
  if (ranOutOfFiles(err)) return OUT_OF_FILES_HINT;
  if (code === ErrorCode.CONFLICT && str(details.branchName) !== undefined) {
    return `Branch ${String(details.branchName)} already exists: pass --if-exists apply to apply the policy to it instead.`;
  }
  if (code === ErrorCode.BRANCH_NOT_FOUND) return branchNotFoundHint(details);
  if (code === ErrorCode.PARTIAL_BRANCH_CREATE) {
    return `Finish with \`svc config apply --branch ${String(details.branchId ?? "<id>")}\`, or delete the branch.`;
  }
  if (code === ErrorCode.CONFIG_LOAD_FAILED) return loadFailedHint(details);
  if (code === ErrorCode.CONFIG_INVALID) return invalidPolicyHint(str(details.file));
  if (code === ErrorCode.STALE_PLAN && details.shownPlan === true) return "Run the command again and review the new plan.";
  if (code === ErrorCode.STALE_PLAN) return STALE_HINTS[String(details.reason)] ?? STATIC_HINTS[code] ?? null;
  return STATIC_HINTS[code] ?? null;
}

/**
 * A missing branch: an id given as a name gets the id and `--branch NAME`; an unknown id never
 * suggests creating a branch named like an id; a missing name suggests creating it.
 */
function branchNotFoundHint(details: Details): string {
  const available = array(details.available)
    .slice(0, 20)
    .map((b) => {
      const r = record(b);
      return str(r.name) !== undefined ? `${String(r.name)} (${String(r.id ?? "?")})` : String(b);
    });
  const named = record(details.namedBranch);
  if (str(named.id) !== undefined) {
    const name = String(named.name);
    const flag = `--branch ${name}`;
    const variable = str(details.variable);
    return variable !== undefined ? `Set ${variable}=${String(named.id)}, or pass ${flag} (the flag takes a name or an id).` : `Pass ${flag} or --branch id:${String(named.id)}.`;
  }
  const list = available.length > 0 ? `one of: ${available.join(", ")}` : "";
  if (details.by === "id") return `No branch has this id; use ${list || "an existing branch id"}.`;
  const missing = str(details.parent) ?? str(details.branchName) ?? str(details.branchId) ?? "NAME";
  return `Create it with \`svc branch create ${missing}\`${list === "" ? "" : `, or use ${list}`}`;
}

/**
 * `svc config init` only helps when no policy file was found; a file that exists but fails
 * gets a hint about that file.
 */
function loadFailedHint(details: Details): string {
  const file = str(details.file);
  const given = str(details.path);
  if (details.problem === "missing" && given !== undefined) {
    return `Check the --config path (${given}, read from ${String(details.cwd)}), or leave --config out to search for svc.ts upwards from there.`;
  }
  if (file === undefined || details.problem === "missing") return STATIC_HINTS[ErrorCode.CONFIG_LOAD_FAILED] ?? "";
  if (details.problem !== undefined) return "Pass --config with the path of the policy file itself.";
  if (details.package !== undefined) return "Reinstall the project's dependencies (npm ci), then run the command again.";
  if (str(details.awaitIn) !== undefined) {
    return "Policy files are evaluated synchronously: read values with process.env (an --env file) or readFileSync instead of await.";
  }
  if (array(details.issues).length > 0) return invalidPolicyHint(file);
  const at = str(details.location);
  return `Fix ${at ?? file} (the error above), then run svc config validate.`;
}

/** The hint of an invalid policy, naming the file it was loaded from (`--config` or the search). */
export function invalidPolicyHint(file: string | undefined): string {
  return `Fix each listed field in ${file ?? "the policy file"}, then run svc config validate.`;
}

const STALE_HINTS: Record<string, string> = {
  format: "Plan with this version of svc: svc config plan --out FILE.",
  target: "Drop the --project-id/--branch flag, or re-plan for this target.",
  state: "Re-plan with svc config plan --out FILE and review it.",
  bundle: "Re-plan with svc config plan --out FILE.",
  changes: "Re-plan with svc config plan --out FILE and review it.",
};

function bulletsFor(code: string, details: Details, message: string): string[][] {
  if (code === ErrorCode.CONFIG_INVALID || code === ErrorCode.CONFIG_LOAD_FAILED) {
    const issues = array(details.issues).map((i) => {
      const r = record(i);
      return [`${issueFieldLabel(str(r.path) ?? "")}: ${String(r.message ?? "")}`];
    });
    if (issues.length > 0) return issues;
    const searched = array(details.searched).map((p) => [`searched ${String(p)}`]);
    if (searched.length > 0) return [...searched, [`stopped at ${String(details.stoppedAt ?? "?")} (${String(details.stopReason ?? "?")})`]];
  }
  if (code === ErrorCode.BUNDLE_FAILED) {
    const failures = array(details.failures).map((f) => {
      const r = record(f);
      return [`function ${String(r.slug ?? "?")}: ${String(r.message ?? "")}`];
    });
    if (failures.length > 0) return failures;
  }
  if (code === ErrorCode.PUSH_CONFLICT) {
    const conflicts = array(details.conflicts).map((c) => {
      const r = record(c);
      const cCode = String(r.code ?? "");
      return [`${String(r.kind ?? "?")} ${String(r.identifier ?? "?")} (${String(r.field ?? "?")}) ${cCode}: ${String(r.reason ?? "")}`, `resolve: ${resolutionFor(cCode)}`];
    });
    if (conflicts.length > 0) return conflicts;
  }
  return message
    .split("\n")
    .slice(1)
    .map((line) => line.replace(/^\s*-\s*/, "").trim())
    .filter((line) => line !== "")
    .map((line) => [line]);
}

function causesOf(err: unknown): ErrorView["causes"] {
  const causes: ErrorView["causes"] = [];
  let current = err instanceof Error ? err.cause : undefined;
  while (current !== undefined && causes.length < 10) {
    const code = typeof current === "object" && current !== null ? str((current as { code?: unknown }).code) ?? null : null;
    const message = current instanceof Error ? current.message : String(current);
    causes.push({ code, message: message.split("\n")[0] ?? "" });
    current = current instanceof Error ? current.cause : undefined;
  }
  return causes;
}

/**
 * An invalid policy is one cause with one code, `PLATFORM_CONFIG_INVALID`, whichever step found
 * it: `loadConfigFromFile` wraps the validation error of the file's export in its
 * `ConfigLoadError` (the library's contract), while `validate` and resolving the branch closure
 * meet it directly. The CLI shows the validation error itself.
 */
function shownError(err: unknown): unknown {
  if (!isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)) return err;
  const cause = (err as { cause?: unknown }).cause;
  if (!isPlatformError(cause, ErrorCode.CONFIG_INVALID)) return err;
  // `defineConfig` validates while the file runs, before anyone knows which file that is: name it.
  const file = str(record(err.details).file);
  if (!(cause instanceof ConfigValidationError) || cause.details.file !== undefined || file === undefined) return cause;
  return new ConfigValidationError(cause.issues, { file, ...(cause.details.branchName === undefined ? {} : { branchName: cause.details.branchName }) }, cause.cause);
}

/** Reduces any thrown value to its printable parts: code, one-line message, hint, bullets, causes. */
export function describeError(thrown: unknown): ErrorView {
  const err = shownError(thrown);
  const known = isPlatformError(err) || isCliError(err);
  const code = known ? (err as { code: string }).code : "CLI_INTERNAL";
  const details = detailsOf(err);
  const fullMessage = err instanceof Error ? err.message : String(err);
  // The CLI's own errors are one line whatever names they hold; an engine message lists its issues on further lines.
  const message = isCliError(err) ? fullMessage : known ? (fullMessage.split("\n")[0] ?? "") : `Unexpected error: ${fullMessage.split("\n")[0] ?? ""}`;
  const requestId = str(details.requestId) ?? str((err as { requestId?: unknown } | null)?.requestId) ?? null;
  return {
    code,
    message,
    requestId,
    hint: hintFor(err, code, details),
    bullets: known && !isCliError(err) ? bulletsFor(code, details, fullMessage) : [],
    causes: causesOf(err),
    stack: !known && err instanceof Error ? (err.stack ?? null) : null,
  };
}

/**
 * The stderr block: `error CODE: message`, request id, hint, bullets, causes with --verbose.
 * Each part is one printed line, so a name inside a message cannot forge another.
 */
export function renderErrorText(view: ErrorView, verbose: boolean): Printed {
  const lines = [`error ${view.code}: ${view.message}`];
  // A quoted source line (`> …`) is shown as is, not as a list item.
  for (const [first = "", ...more] of view.bullets) lines.push(first.startsWith("> ") ? `    ${first}` : `  - ${first}`, ...more.map((line) => `    ${line}`));
  if (view.requestId !== null) lines.push(`  request id: ${view.requestId}`);
  if (view.hint !== null) lines.push(`  hint: ${view.hint}`);
  if (verbose) {
    for (const cause of view.causes) lines.push(`  caused by: ${cause.code === null ? "" : `${cause.code}: `}${cause.message}`);
    if (view.code === "CLI_INTERNAL" && view.stack !== null) lines.push(...view.stack.split("\n"));
  }
  return printedLines(lines);
}

/** The error as JSON documents carry it. */
export function toJsonError(view: ErrorView): JsonError {
  return {
    code: view.code,
    message: view.message,
    requestId: view.requestId,
    hint: view.hint,
    causes: view.causes,
  };
}

/** The exit code for an error. */
export function exitCodeFor(thrown: unknown): number {
  const err = shownError(thrown);
  const code = isPlatformError(err) || isCliError(err) ? (err as { code: string }).code : "CLI_INTERNAL";
  switch (code) {
    case ErrorCode.PUSH_CONFLICT:
      return 3;
    case "CLI_CONFIRMATION_REQUIRED":
      return 4;
    case "CLI_ABORTED":
      return 5;
    case ErrorCode.STALE_PLAN:
    case ErrorCode.PUSH_ABORTED:
    case "CLI_PLAN_UNREADABLE":
      return 6;
    case ErrorCode.APPLY_FAILED: {
      const result = record(detailsOf(err).result);
      return array(result.applied).length > 0 ? 7 : 1;
    }
    case ErrorCode.PARTIAL_BRANCH_CREATE:
      return 7;
    case "CLI_LOCAL_WRITE_FAILED":
      return detailsOf(err).applied === true ? 7 : 1;
    case ErrorCode.CHECK_FAILED:
      return 8;
    case ErrorCode.CANCELLED:
    case "CLI_INTERRUPTED":
      return 130;
    default:
      return 1;
  }
}
