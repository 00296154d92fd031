import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultGitBranches } from "../../../src/cli/git.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const trees: TempTree[] = [];
// The machine's own git configuration (a global init.defaultBranch) must not decide these rows.
beforeEach(() => vi.stubEnv("GIT_CONFIG_GLOBAL", "/dev/null"));
afterEach(() => {
  vi.unstubAllEnvs();
  for (const tree of trees.splice(0)) tree.remove();
});

/** A real git repository whose first branch is `first`. */
function repository(first: string): string {
  const tree = createTempTree({ "README.md": "hello\n" });
  trees.push(tree);
  run(tree.root, ["init", "-q", "-b", first]);
  run(tree.root, ["add", "."]);
  run(tree.root, ["-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "init"]);
  return tree.root;
}

function run(cwd: string, args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

describe("the repository's default git branch, which svc branch sync maps to no preview", () => {
  it("is main and master when nothing says otherwise", async () => {
    const dir = repository("main");
    expect(await defaultGitBranches(dir)).toEqual(["main", "master"]);
  });

  it("is init.defaultBranch when the repository configures it", async () => {
    const dir = repository("trunk");
    run(dir, ["config", "init.defaultBranch", "trunk"]);
    expect(await defaultGitBranches(dir)).toEqual(["trunk"]);
  });

  it("is the branch origin's HEAD points at (what git clone records), and only that one", async () => {
    const upstream = repository("develop");
    const dir = repository("main");
    run(dir, ["remote", "add", "origin", upstream]);
    run(dir, ["fetch", "-q", "origin"]);
    run(dir, ["remote", "set-head", "origin", "--auto"]);
    expect(await defaultGitBranches(dir)).toEqual(["develop"]);
  });

  it("falls back when origin has no HEAD recorded", async () => {
    const upstream = repository("develop");
    const dir = repository("main");
    run(dir, ["remote", "add", "origin", upstream]);
    run(dir, ["config", "init.defaultBranch", "main"]);
    expect(await defaultGitBranches(dir)).toEqual(["main"]);
  });
});
