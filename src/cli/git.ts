/**
 * The git facts `svc branch sync` and `svc branch cleanup` read: the checked-out branch, whether
 * a name is one git can have, and the branches that exist, locally and on every remote (asked with
 * `git ls-remote`, never guessed from remote-tracking refs). Only reads; runs the `git` binary
 * with prompts off and a time limit.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import { shown } from "./views/outside-text.js";
import { gitBranchNameIssue, stripHeadsPrefix } from "./sync-names.js";

/** How long one git command may take (`ls-remote` talks to the network). */
const GIT_TIMEOUT_MS = 60_000;

interface GitRun {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The `git` binary is not installed. */
  missing: boolean;
}

function git(cwd: string, args: readonly string[]): Promise<GitRun> {
  // No credential prompt, no pager, no terminal: a remote that wants a password fails at once.
  const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "", GIT_PAGER: "cat", LC_ALL: "C" };
  return new Promise((resolve) => {
    const child = execFile("git", [...args], { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const missing = (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
      const timedOut = error !== null && (error as { killed?: boolean }).killed === true;
      resolve({ ok: error === null, stdout: String(stdout), stderr: timedOut ? `no answer within ${GIT_TIMEOUT_MS / 1000} s` : String(stderr), missing });
    });
    child.stdin?.end();
  });
}

function gitMissing(why: string): CliError {
  return new CliError(CliErrorCode.GIT_UNAVAILABLE, `git is not installed, and ${why}.`, { hint: "Install git, or run this in a git checkout." });
}

async function requireWorkTree(cwd: string, why: string): Promise<void> {
  const tree = await git(cwd, ["rev-parse", "--is-inside-work-tree"]);
  if (tree.missing) throw gitMissing(why);
  if (!tree.ok || tree.stdout.trim() !== "true") {
    throw new CliError(CliErrorCode.GIT_UNAVAILABLE, `${shown(cwd)} is not inside a git work tree, and ${why}.`, { hint: "Run it in the repository's checkout." });
  }
}

/** The names of the configured remotes (none outside a git work tree). */
async function remoteNames(cwd: string): Promise<string[]> {
  const remotes = await git(cwd, ["remote"]);
  return remotes.ok ? remotes.stdout.split("\n").map((r) => r.trim()).filter((r) => r !== "") : [];
}

/**
 * The checked-out branch's short name. A detached HEAD (as in a pull-request checkout) or a
 * directory outside git is an error pointing at `--git-branch`.
 */
export async function currentGitBranch(cwd: string): Promise<string> {
  await requireWorkTree(cwd, "svc branch sync needs the git branch to map");
  const head = await git(cwd, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const name = head.stdout.trim();
  if (!head.ok || name === "") {
    throw new CliError(CliErrorCode.USAGE, "HEAD is detached, so there is no current git branch to map.", {
      hint: "Name it with --git-branch NAME (in GitHub Actions: --git-branch \"$GITHUB_HEAD_REF\").",
    });
  }
  return name;
}

/**
 * The names that count as the repository's default git branch: the branch a remote's `HEAD` points
 * at (`origin` first, else the only remote; what `git clone` records), else `init.defaultBranch`
 * when configured, else both `main` and `master`. `svc branch sync` maps none of them to a preview.
 */
export async function defaultGitBranches(cwd: string): Promise<string[]> {
  const remotes = await remoteNames(cwd);
  const remote = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0] : undefined;
  if (remote !== undefined) {
    const head = await git(cwd, ["symbolic-ref", "--quiet", `refs/remotes/${remote}/HEAD`]);
    const prefix = `refs/remotes/${remote}/`;
    const target = head.stdout.trim();
    if (head.ok && target.startsWith(prefix) && target.length > prefix.length) return [target.slice(prefix.length)];
  }
  const configured = await git(cwd, ["config", "--get", "init.defaultBranch"]);
  const name = configured.stdout.trim();
  return configured.ok && name !== "" ? [name] : ["main", "master"];
}

/**
 * A git branch name given on the command line (`--git-branch`), as git names the branch:
 * `refs/heads/` is stripped; a remote-tracking name (`origin/feat`, `refs/remotes/…`, any
 * configured remote's prefix) and a name git cannot have (`git check-ref-format --branch`
 * refuses it: `a..b`, `feat-*`, `--help`, `HEAD`) are usage errors. Works outside a git work
 * tree too (a CI job that names the branch).
 */
export async function checkGitBranchName(cwd: string, given: string, flag: string): Promise<string> {
  const name = stripHeadsPrefix(given);
  const issue = gitBranchNameIssue(name, await remoteNames(cwd));
  const refuse = (why: string): CliError =>
    new CliError(CliErrorCode.USAGE, `${flag} ${JSON.stringify(shown(given))} ${why}.`, { hint: `Give the branch's own name, as \`git branch\` shows it (for example ${flag} feature/login).` });
  if (issue !== null) throw refuse(issue);
  const checked = await git(cwd, ["check-ref-format", "--branch", name]);
  if (checked.missing) throw gitMissing(`${flag} needs it to check the branch name`);
  if (!checked.ok || checked.stdout.trim() !== name) throw refuse("is not a name git can give a branch (git check-ref-format --branch refuses it)");
  return name;
}

/** The git branches that exist, and where that was learnt. */
export interface ExistingGitBranches {
  /** Local branches and every remote's branches, by name. */
  readonly names: ReadonlySet<string>;
  /** The remotes that answered (`git ls-remote --heads`); empty when none is configured. */
  readonly remotes: readonly string[];
}

/**
 * Every branch that exists: local branches (`refs/heads/…`) and the branches each configured
 * remote has now, as `git ls-remote --heads <remote>` lists them. Remote-tracking refs are not
 * used: a single-branch clone, or a fetch that has not run, would make a live branch look gone.
 * A remote that cannot answer (offline, no access) is an error: absence that cannot be
 * confirmed is never assumed. In a repository without remotes the local branches are all there is.
 */
export async function existingGitBranches(cwd: string): Promise<ExistingGitBranches> {
  await requireWorkTree(cwd, "svc branch cleanup needs the repository's branches");
  const [heads, remotes] = await Promise.all([git(cwd, ["for-each-ref", "--format=%(refname)", "refs/heads"]), remoteNames(cwd)]);
  if (!heads.ok) throw new CliError(CliErrorCode.GIT_UNAVAILABLE, `git for-each-ref failed: ${shown(heads.stderr.trim())}`, { hint: "Check the repository with git status." });
  const names = new Set(refNames(heads.stdout));
  const listed = await Promise.all(remotes.map(async (remote) => ({ remote, run: await git(cwd, ["ls-remote", "--heads", "--", remote]) })));
  for (const { remote, run } of listed) {
    if (!run.ok) {
      throw new CliError(CliErrorCode.GIT_UNAVAILABLE, `Cannot tell which git branches still exist: git ls-remote --heads ${shown(remote)} failed (${shown(run.stderr.trim().split("\n").pop() ?? "")}); nothing was deleted.`, {
        hint: `Run it where the remote answers (network, credentials), or clean up one preview with --git-branch NAME.`,
      });
    }
    for (const name of refNames(run.stdout.split("\n").map((line) => line.split("\t")[1] ?? "").join("\n"))) names.add(name);
  }
  return { names, remotes };
}

/** Branch names from lines of `refs/heads/<name>`; other lines are skipped. */
function refNames(lines: string): string[] {
  return lines
    .split("\n")
    .map((line) => line.trim())
    .filter((ref) => ref.startsWith("refs/heads/"))
    .map((ref) => ref.slice("refs/heads/".length));
}

/**
 * The checkout a lifecycle hook is told about: the checked-out branch (`null` when HEAD is
 * detached) and HEAD's commit (`null` before the first commit); `null` outside a work tree or
 * without git. Never throws.
 */
export async function readGitState(cwd: string): Promise<{ branch: string | null; commit: string | null } | null> {
  const tree = await git(cwd, ["rev-parse", "--is-inside-work-tree"]);
  if (!tree.ok || tree.stdout.trim() !== "true") return null;
  const [head, commit] = await Promise.all([git(cwd, ["symbolic-ref", "--quiet", "--short", "HEAD"]), git(cwd, ["rev-parse", "--verify", "--quiet", "HEAD"])]);
  const branch = head.stdout.trim();
  const hash = commit.stdout.trim();
  return { branch: head.ok && branch !== "" ? branch : null, commit: commit.ok && hash !== "" ? hash : null };
}

/**
 * The absolute directory git runs hooks from: `core.hooksPath` when set, else the repository's
 * `hooks` (a worktree's common one). A directory outside a work tree is a usage error.
 */
export async function gitHooksDir(cwd: string): Promise<string> {
  await requireWorkTree(cwd, "svc branch hook needs the repository's hooks directory");
  const run = await git(cwd, ["rev-parse", "--git-path", "hooks"]);
  if (!run.ok) throw new CliError(CliErrorCode.GIT_UNAVAILABLE, `git rev-parse --git-path hooks failed: ${shown(run.stderr.trim())}`, { hint: "Check the repository with git status." });
  return resolve(cwd, run.stdout.replace(/\n$/, ""));
}
