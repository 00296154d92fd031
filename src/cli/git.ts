/**
 * The git facts `svc branch sync` and `svc branch cleanup` read: the checked-out branch and the
 * branches that exist locally or as remote-tracking refs. Only reads; runs the `git` binary.
 */
import { execFile } from "node:child_process";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";

function git(cwd: string, args: readonly string[]): Promise<{ ok: boolean; stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile("git", [...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const missing = (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
      resolve({ ok: error === null, stdout: String(stdout), stderr: String(stderr), missing });
    });
  });
}

async function requireWorkTree(cwd: string, why: string): Promise<void> {
  const tree = await git(cwd, ["rev-parse", "--is-inside-work-tree"]);
  if (tree.missing) throw new CliError(CliErrorCode.USAGE, `git is not installed, and ${why}.`, { hint: "Install git, or run this in a git checkout." });
  if (!tree.ok || tree.stdout.trim() !== "true") throw new CliError(CliErrorCode.USAGE, `${cwd} is not inside a git work tree, and ${why}.`, { hint: "Run it in the repository's checkout." });
}

/**
 * The checked-out branch's short name. A detached HEAD (as in a pull-request checkout) or a
 * directory outside git is a usage error pointing at `--git-branch`.
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
 * Every branch name git knows here: local branches (`refs/heads/…`) and remote-tracking ones
 * (`refs/remotes/<remote>/…`, the remote's name stripped; `HEAD` pointers skipped). Remote-tracking
 * refs are as fresh as the last `git fetch --prune`.
 */
export async function knownGitBranches(cwd: string): Promise<Set<string>> {
  await requireWorkTree(cwd, "svc branch cleanup needs the repository's branches");
  const [refs, remotes] = await Promise.all([git(cwd, ["for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes"]), git(cwd, ["remote"])]);
  if (!refs.ok) throw new CliError(CliErrorCode.USAGE, `git for-each-ref failed: ${refs.stderr.trim()}`, { hint: "Check the repository with git status." });
  const remoteNames = remotes.stdout.split("\n").map((r) => r.trim()).filter((r) => r !== "").sort((a, b) => b.length - a.length);
  const names = new Set<string>();
  for (const ref of refs.stdout.split("\n").map((l) => l.trim())) {
    if (ref.startsWith("refs/heads/")) {
      names.add(ref.slice("refs/heads/".length));
      continue;
    }
    if (!ref.startsWith("refs/remotes/")) continue;
    const rest = ref.slice("refs/remotes/".length);
    const remote = remoteNames.find((r) => rest.startsWith(`${r}/`));
    const name = remote === undefined ? rest.slice(rest.indexOf("/") + 1) : rest.slice(remote.length + 1);
    if (name !== "HEAD" && name !== "") names.add(name);
  }
  return names;
}
