/**
 * Whether a file is ignored by git: `git check-ignore -q` in
 * the file's directory. Only reads; `.gitignore` is never edited.
 */
import { execFile } from "node:child_process";
import path from "node:path";

/**
 * `true` when git ignores `file`, `false` when it does not, `null` outside a git work tree or
 * without git.
 */
export function isGitIgnored(file: string): Promise<boolean | null> {
  const cwd = path.dirname(file);
  return new Promise((resolve) => {
    execFile("git", ["rev-parse", "--is-inside-work-tree"], { cwd }, (treeError, stdout) => {
      if (treeError !== null || stdout.trim() !== "true") {
        resolve(null);
        return;
      }
      execFile("git", ["check-ignore", "-q", path.basename(file)], { cwd }, (error) => {
        if (error === null) resolve(true);
        else resolve(error.code === 1 ? false : null);
      });
    });
  });
}

/** The warning for an env file git does not ignore, naming the line to add to `.gitignore`. */
export function notIgnoredWarning(display: string): string {
  const name = path.basename(display);
  return `${display} is not ignored by git; add this line to .gitignore: ${name}`;
}
