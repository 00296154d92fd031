/**
 * The git post-checkout hook and svc branch status, in real temporary git repositories against the
 * emulator over HTTP: `git checkout -b feature-x` creates preview/feature-x; file checkouts, CI
 * and a missing key skip; an existing hook is chained and restored; core.hooksPath is honoured;
 * hostile paths and branch names. Also the checkout hooks of svc.ts around sync.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emulatorEnv, runProcess, runSvc, useEmulatorProject } from "./harness.js";

const shared = useEmulatorProject({ per: "test" });

/** A git repository (in a directory whose name has spaces and quotes) with one commit and svc.ts. */
async function repo(policy = "export default {};\n"): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "svc-git-hook-")), `my repo 'q" x`);
  mkdirSync(dir);
  writeFileSync(join(dir, "svc.ts"), policy);
  writeFileSync(join(dir, "README.md"), "hello\n");
  for (const args of [["init", "-q", "-b", "main"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "init"]]) {
    const run = await runProcess("git", args, { cwd: dir, env: {} });
    expect(run.code, run.stderr).toBe(0);
  }
  return dir;
}

/** `git ARGS` with the emulator's variables (no SVC_BRANCH_ID), as a developer's shell would have them. */
function git(dir: string, args: string[], extra: Record<string, string | undefined> = {}) {
  const { SVC_BRANCH_ID: _unused, ...env } = emulatorEnv(shared.emu());
  return runProcess("git", args, { cwd: dir, env: { ...env, ...extra } });
}

/** Whether preview/<gitBranch> exists, as svc branch status --json says. */
async function previewExists(dir: string, gitBranch: string): Promise<boolean> {
  const { SVC_BRANCH_ID: _unused, ...env } = emulatorEnv(shared.emu());
  const run = await runSvc(["branch", "status", "--json", "--git-branch", gitBranch], { cwd: dir, env });
  expect(run.code, run.stderr).toBe(0);
  const doc = JSON.parse(run.stdout) as { branchName: string; exists: boolean };
  expect(doc.branchName).toBe(`preview/${gitBranch}`);
  return doc.exists;
}

describe("svc branch hook install", () => {
  it("makes git checkout -b feature-x create preview/feature-x; file checkouts, CI and a missing key skip", async () => {
    const dir = await repo();
    const installed = await runSvc(["branch", "hook", "install"], { cwd: dir, env: {} });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("Installed the post-checkout hook in");

    const checkout = await git(dir, ["checkout", "-b", "feature-x"]);
    expect(checkout.code, checkout.stderr).toBe(0);
    expect(checkout.stderr).toContain("Git branch feature-x -> platform branch preview/feature-x");
    expect(await previewExists(dir, "feature-x")).toBe(true);

    const file = await git(dir, ["checkout", "--", "README.md"]);
    expect(file.stderr).not.toContain("platform branch");
    const ci = await git(dir, ["checkout", "-b", "in-ci"], { CI: "true" });
    expect(ci.stderr).not.toContain("platform branch");
    const keyless = await git(dir, ["checkout", "-b", "no-key"], { SVC_API_KEY: undefined });
    expect(keyless.stderr).not.toContain("platform branch");
    expect(await previewExists(dir, "in-ci")).toBe(false);
    expect(await previewExists(dir, "no-key")).toBe(false);

    const status = await runSvc(["branch", "status"], { cwd: dir, env: { ...emulatorEnv(shared.emu()), SVC_BRANCH_ID: undefined } });
    expect(status.stdout).toContain("Git branch      no-key");
    expect(status.stdout).toContain("Preview branch  preview/no-key");
    expect(status.stdout).toContain("Exists          no: svc branch sync creates it");
    expect(status.stdout).toContain("Git hook        installed");

    // The default git branch stands for the platform's default branch: no preview/main.
    const main = await git(dir, ["checkout", "main"], { GIT_CONFIG_GLOBAL: "/dev/null" });
    expect(main.code, main.stderr).toBe(0);
    expect(main.stderr).toContain("Git branch main is the repository's default branch: it stands for the platform's default branch, which svc branch sync leaves alone.");
    expect(main.stderr).not.toContain("platform branch preview/main");
    expect(await previewExists(dir, "main")).toBe(false);
    const onMain = await runSvc(["branch", "status", "--json"], { cwd: dir, env: { ...emulatorEnv(shared.emu()), SVC_BRANCH_ID: undefined, GIT_CONFIG_GLOBAL: "/dev/null" } });
    expect(JSON.parse(onMain.stdout)).toMatchObject({ gitBranch: "main", branchName: null, defaultGitBranch: true, hook: "svc" });
  }, 180_000);

  it("keeps an existing hook (a symlink), runs it first, and uninstall restores it; a non-executable one is kept but not run", async () => {
    const dir = await repo();
    const hooks = join(dir, ".git", "hooks");
    writeFileSync(join(dir, "previous-hook.sh"), '#!/bin/sh\necho "previous hook $3" >> previous.log\n');
    chmodSync(join(dir, "previous-hook.sh"), 0o755);
    symlinkSync(join(dir, "previous-hook.sh"), join(hooks, "post-checkout"));
    expect((await runSvc(["branch", "hook", "install"], { cwd: dir, env: {} })).code).toBe(0);
    expect(lstatSync(join(hooks, "post-checkout.svc-chained")).isSymbolicLink()).toBe(true);
    await git(dir, ["checkout", "-b", "chained"]);
    expect(readFileSync(join(dir, "previous.log"), "utf8")).toBe("previous hook 1\n");
    expect(await previewExists(dir, "chained")).toBe(true);

    const removed = await runSvc(["branch", "hook", "uninstall"], { cwd: dir, env: {} });
    expect(removed.stdout).toContain("restored the hook it had kept");
    expect(readlinkSync(join(hooks, "post-checkout"))).toBe(join(dir, "previous-hook.sh"));
    expect(existsSync(join(hooks, "post-checkout.svc-chained"))).toBe(false);

    rmSync(join(hooks, "post-checkout"));
    writeFileSync(join(hooks, "post-checkout"), '#!/bin/sh\necho "not executable" >> never.log\n', { mode: 0o644 });
    expect((await runSvc(["branch", "hook", "install"], { cwd: dir, env: {} })).code).toBe(0);
    await git(dir, ["checkout", "-b", "quiet"]);
    expect(existsSync(join(dir, "never.log"))).toBe(false);
    expect((await runSvc(["branch", "hook", "uninstall"], { cwd: dir, env: {} })).code).toBe(0);
    expect(readFileSync(join(hooks, "post-checkout"), "utf8")).toContain("not executable");
  }, 180_000);

  it("installs where core.hooksPath points, and a refused branch name fails the sync, not the checkout", async () => {
    const dir = await repo();
    await runProcess("git", ["config", "core.hooksPath", "team hooks"], { cwd: dir, env: {} });
    expect((await runSvc(["branch", "hook", "install"], { cwd: dir, env: {} })).code).toBe(0);
    expect(existsSync(join(dir, "team hooks", "post-checkout"))).toBe(true);
    const odd = await git(dir, ["checkout", "-b", "+++"]);
    expect(odd.code).toBe(0);
    expect(odd.stderr).toContain("has no ASCII letters or digits (a-z, 0-9)");
    expect(odd.stderr).toContain("svc: branch sync failed; the checkout itself succeeded");
  }, 180_000);

  it("outside a git work tree is a clear error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-no-git-"));
    const run = await runSvc(["branch", "hook", "install"], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is not inside a git work tree");
  }, 60_000);
});

describe("checkout hooks around svc branch sync", () => {
  it("checkout.before may rename the branch; checkout.after runs once it exists", async () => {
    const dir = await repo(
      "export default { hooks: { checkout: { before: (ctx) => ({ name: `preview/ticket-${ctx.git.branch.length}` }), after: 'echo \"synced $SVC_BRANCH created=$SVC_BRANCH_CREATED\"' } } };\n",
    );
    await runProcess("git", ["checkout", "-qb", "abc"], { cwd: dir, env: {} });
    const { SVC_BRANCH_ID: _unused, ...env } = emulatorEnv(shared.emu());
    const run = await runSvc(["branch", "sync"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("Hook checkout.before named the platform branch preview/ticket-3");
    expect(run.stderr).toContain("[hook checkout.after] synced preview/ticket-3 created=true");
    expect(await previewExists(dir, "ticket-3")).toBe(true);
  }, 120_000);

  it("a checkout.before that returns a bad name fails before any change", async () => {
    const dir = await repo("export default { hooks: { checkout: { before: () => ({ name: 'bad\\u0007name' }) } } };\n");
    await runProcess("git", ["checkout", "-qb", "abc"], { cwd: dir, env: {} });
    const { SVC_BRANCH_ID: _unused, ...env } = emulatorEnv(shared.emu());
    const run = await runSvc(["branch", "sync"], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error PLATFORM_HOOK_FAILED: hook checkout.before failed: it returned an object whose name");
    expect(await previewExists(dir, "abc")).toBe(false);
  }, 120_000);
});
