/**
 * How `svc branch sync` names platform branches after git branches, and how it marks them so
 * `svc branch cleanup` deletes only what sync made. Pure.
 */
import { createHash } from "node:crypto";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";

/**
 * The annotation key sync sets on every branch it creates; its value is the git branch name as
 * given (before sanitising). A branch without it was not made by sync and is never cleaned up.
 */
export const SYNC_ANNOTATION = "svc-config/sync-git-branch";

/** The placeholder of a name template. */
export const GIT_BRANCH_PLACEHOLDER = "{git-branch}";

/** The default name template. */
export const DEFAULT_NAME_TEMPLATE = `preview/${GIT_BRANCH_PLACEHOLDER}`;

/** The platform's longest branch name. */
const MAX_NAME = 256;

const HEADS = "refs/heads/";

/** A branch name without a leading `refs/heads/` (`refs/heads/feat` → `feat`). */
export function stripHeadsPrefix(name: string): string {
  return name.startsWith(HEADS) ? name.slice(HEADS.length) : name;
}

/**
 * What is wrong with a git branch name before git itself checks it (`null` when nothing): a ref
 * other than a branch (`refs/…`), a remote-tracking name (`origin/feat`: the remote's prefix is
 * not part of the branch's name; `origin` counts even when not configured), or a leading `-`
 * (git would read it as an option).
 */
export function gitBranchNameIssue(name: string, remotes: readonly string[]): string | null {
  if (name.startsWith("refs/")) return "names a ref that is not a branch (refs/heads/… is the only kind sync maps)";
  const remote = [...new Set(["origin", ...remotes])].find((r) => name.startsWith(`${r}/`));
  if (remote !== undefined) return `names a remote-tracking branch of ${remote}; give the branch's own name (${name.slice(remote.length + 1)})`;
  if (name.startsWith("-")) return "starts with -, which git reads as an option";
  return null;
}

/**
 * The git branch names a recorded sync mark can stand for: the mark without `refs/heads/`, and,
 * for a mark an older sync wrote with a remote's prefix (`origin/feat`, `refs/remotes/origin/feat`),
 * the name without it. Cleanup keeps a preview while any of them exists.
 */
export function namesOfRecordedBranch(recorded: string, remotes: readonly string[]): string[] {
  const name = stripHeadsPrefix(recorded);
  const names = [name];
  for (const remote of new Set(["origin", ...remotes])) {
    for (const prefix of [`${remote}/`, `refs/remotes/${remote}/`]) if (name.startsWith(prefix)) names.push(name.slice(prefix.length));
  }
  return names;
}

/**
 * A git branch name as a platform-branch name part: lower case; every run of characters other
 * than `a-z`, `0-9`, `.`, `_`, `-` and `/` becomes one `-`; repeated `/` collapse; leading and
 * trailing `-`, `.` and `/` go. `Feature/Login Page!` → `feature/login-page`.
 */
export function sanitizeGitBranch(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9._/-]+/g, "-")
    .replace(/\/{2,}/g, "/")
    .replace(/^[-./]+|[-./]+$/g, "");
}

/**
 * The platform branch for a git branch: the template, which holds `{git-branch}` once, with it
 * replaced by the sanitised name. A name past 256 characters is cut and given an 8-hex suffix of the git
 * name's SHA-256, so different long names stay different.
 */
export function syncBranchName(template: string, gitBranch: string): string {
  const [head, tail, ...extra] = template.split(GIT_BRANCH_PLACEHOLDER);
  if (tail === undefined || extra.length > 0) {
    throw new CliError(CliErrorCode.USAGE, `--name-template ${JSON.stringify(template)} must hold the ${GIT_BRANCH_PLACEHOLDER} placeholder exactly once.`, { hint: `For example --name-template "${DEFAULT_NAME_TEMPLATE}".` });
  }
  const part = sanitizeGitBranch(gitBranch);
  if (part === "") {
    throw new CliError(CliErrorCode.USAGE, `The git branch ${JSON.stringify(gitBranch)} has no ASCII letters or digits (a-z, 0-9) to name a platform branch after.`, { hint: "Sync it under another name with --git-branch NAME." });
  }
  const fixed = (head ?? "").length + tail.length;
  if (fixed + part.length <= MAX_NAME) return `${head ?? ""}${part}${tail}`;
  const suffix = `-${createHash("sha256").update(gitBranch).digest("hex").slice(0, 8)}`;
  const room = MAX_NAME - fixed - suffix.length;
  if (room < 1) throw new CliError(CliErrorCode.USAGE, `--name-template is too long: a branch name is at most ${MAX_NAME} characters.`, { hint: "Shorten the template." });
  return `${head ?? ""}${part.slice(0, room).replace(/[-./]+$/, "")}${suffix}${tail}`;
}
