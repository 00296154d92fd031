// The `ConfigLoadError`s of `loadConfigFromFile`: one builder per table row.
import { ConfigLoadError, ErrorCode, formatIssues, isPlatformError } from "../errors/index.js";
import type { ConfigIssue } from "../errors/index.js";
import type { PathKind, PolicySearchStopReason } from "./find-policy-file.js";

/** The walk found no policy file: lists every path checked and why it stopped. */
export function policyNotFoundError(found: {
  searched: readonly string[];
  stoppedAt: string;
  stopReason: PolicySearchStopReason;
}): ConfigLoadError {
  const why = {
    git: `found \`.git\` at ${found.stoppedAt} (the repository root)`,
    stopAt: `reached \`stopAt\` ${found.stoppedAt}`,
    root: `reached the filesystem root ${found.stoppedAt}`,
  }[found.stopReason];
  const message = [
    "No policy file found. Checked:",
    ...found.searched.map((file) => `  - ${file}`),
    `The search stopped because it ${why}.`,
    "Create svc.ts in your project, or pass `path` to name the policy file.",
  ].join("\n");
  return new ConfigLoadError(message, {
    searched: [...found.searched],
    stoppedAt: found.stoppedAt,
    stopReason: found.stopReason,
  });
}

/** The directory a search should start in does not exist or is not a directory. */
export function searchStartError(cwd: string): ConfigLoadError {
  return new ConfigLoadError(
    `cannot search for a policy file from ${cwd}: it is not an existing directory; pass an existing \`cwd\`, or \`path\` to name the file`,
    { cwd },
  );
}

/** An explicit `path` that is missing, a directory or not a regular file. */
export function explicitPathError(input: {
  path: string;
  cwd: string;
  file: string;
  kind: Exclude<PathKind, "file">;
}): ConfigLoadError {
  // Worded for both spellings of the file: the CLI's --config and the library's `path`.
  const how = `"${input.path}" resolved against ${input.cwd}`;
  const problem = {
    missing: `policy file ${input.file} does not exist (${how}); name an existing file, or name none to search for svc.ts`,
    directory: `${input.file} is a directory, not a policy file (${how}); name the file itself, e.g. ${input.file}/svc.ts, or search from that directory`,
    other: `${input.file} is not a regular file (${how}); name the policy file itself`,
  }[input.kind];
  return new ConfigLoadError(problem, { file: input.file, path: input.path, cwd: input.cwd, problem: input.kind });
}

/** The policy file exists but could not be read. */
export function unreadablePolicyError(file: string, cause: unknown): ConfigLoadError {
  return new ConfigLoadError(
    `cannot read ${file}: ${messageOf(cause)}; check that the file is readable`,
    { file },
    cause,
  );
}

/** A package that evaluating policy files needs (`jiti`, `esbuild`) could not be imported. */
export function dependencyUnavailableError(file: string, name: string, cause: unknown): ConfigLoadError {
  return new ConfigLoadError(
    `cannot evaluate ${file}: the package "${name}" could not be loaded (${messageOf(cause)}); ` +
      "reinstall svc-config's dependencies (e.g. `npm ci`)",
    { file, package: name },
    cause,
  );
}

/**
 * The module (or a module it imports) threw, or did not parse, while being evaluated. A throw
 * names where it happened (`location`, `file:line:column` in the user's source, from
 * {@link policyStackLocation}); a parse error's location is already in its message.
 */
export function evaluationError(file: string, cause: unknown, location: string | undefined): ConfigLoadError {
  const where = location === undefined || messageOf(cause).includes(location) ? "" : ` (at ${location})`;
  return new ConfigLoadError(`failed to evaluate ${file}: ${messageOf(cause)}${where}`, location === undefined ? { file } : { file, location }, cause);
}

/** The module, or a local module it imports (`awaitIn`), uses top-level `await`. */
export function topLevelAwaitError(file: string, awaitIn: string, cause: unknown): ConfigLoadError {
  const who = awaitIn === file ? file : `${awaitIn} (imported by ${file})`;
  return new ConfigLoadError(
    `${who} uses top-level await, which a policy file cannot use: it is evaluated synchronously, and so is its \`branch\` closure; ` +
      "read the value synchronously (process.env, readFileSync), or compute it before loading the policy and pass it in through the environment",
    { file, awaitIn },
    cause,
  );
}

/** The module has neither a default export nor a `config` export. */
export function noPolicyExportError(file: string): ConfigLoadError {
  return new ConfigLoadError(
    `${file} has no default export or \`config\` export; add \`export default defineConfig({ ... })\``,
    { file },
  );
}

/** The module exports two different values as `default` and `config`. */
export function conflictingExportsError(file: string): ConfigLoadError {
  return new ConfigLoadError(
    `${file} exports both \`default\` and \`config\`; keep one (or export the same object under both names)`,
    { file },
  );
}

/** The exported value failed validation; `cause` is the `ConfigValidationError`. */
export function invalidPolicyError(file: string, cause: { issues: readonly ConfigIssue[] }): ConfigLoadError {
  const issues = cause.issues.map((issue) => ({ path: issue.path, message: issue.message }));
  return new ConfigLoadError(formatIssues(issues, { file }), { file, issues }, cause);
}

/**
 * Whether `err` is a `ConfigValidationError`, from this copy of the package or another one
 * (code-based, like `isPlatformError`).
 */
export function isValidationError(err: unknown): err is { issues: readonly ConfigIssue[] } {
  return isPlatformError(err, ErrorCode.CONFIG_INVALID) && Array.isArray((err as { issues?: unknown }).issues);
}

function messageOf(cause: unknown): string {
  const message = typeof cause === "object" && cause !== null ? (cause as { message?: unknown }).message : undefined;
  return typeof message === "string" ? message : String(cause);
}
