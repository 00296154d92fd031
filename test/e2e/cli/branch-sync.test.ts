/**
 * `svc branch sync`, `svc branch cleanup` and `--write-env`, run as the real bin in a temporary git
 * repository against the emulator over HTTP.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "dotenv";
import { describe, expect, it } from "vitest";
import { API_KEY, PLANTED_SECRET, ROOT, emulatorEnv, runSvc, useEmulatorProject } from "./harness.js";

const shared = useEmulatorProject();

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: dir, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.test", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.test" },
  });
}

/** The CLI fixture project as a git repository on `main` with the branches `feature/one` and `feature/Two`. */
function gitProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-sync-e2e-"));
  cpSync(join(ROOT, "fixtures", "cli", "project"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "init");
  git(dir, "branch", "feature/one");
  git(dir, "branch", "feature/Two");
  return dir;
}

async function branchNames(): Promise<string[]> {
  const emu = shared.emu();
  const res = await fetch(`${emu.apiHost}/projects/${emu.projectId}/branches`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const body = (await res.json()) as { branches: { name: string }[] };
  return body.branches.map((b) => b.name).sort();
}

describe("svc branch sync and cleanup in a git repository", () => {
  it("maps two git branches to previews, writes their env files, and cleans up only what sync made and git lost", async () => {
    const dir = gitProject();
    const env = emulatorEnv(shared.emu(), undefined);
    git(dir, "checkout", "-q", "feature/one");

    const first = await runSvc(["branch", "sync", "--env", ".env.ci", "--write-env", ".env"], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("Git branch feature/one -> platform branch preview/feature/one");
    expect(first.stdout).toMatch(/^Created branch preview\/feature\/one \(br-[a-z0-9-]+\)\n/);
    expect(first.stdout).toMatch(/\nFunctions \(1\)\n {2}hello {2}http:\/\/127\.0\.0\.1:\d+\/ {2}Hello\n$/);
    expect(first.stderr).toContain("warning: .env is not ignored by git; add this line to .gitignore: .env");
    const vars = parse(readFileSync(join(dir, ".env"), "utf8"));
    expect(Object.keys(vars)).toEqual(["DATABASE_URL", "DATABASE_URL_DIRECT", "SVC_FUNCTION_HELLO_URL"]);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    const pooled = await runSvc(["branch", "connection-string", "--branch", "preview/feature/one", "--pooled"], { cwd: dir, env });
    const direct = await runSvc(["branch", "connection-string", "--branch", "preview/feature/one"], { cwd: dir, env });
    expect(vars["DATABASE_URL"]).toBe(pooled.stdout.trim());
    expect(vars["DATABASE_URL_DIRECT"]).toBe(direct.stdout.trim());
    expect(first.stdout).toContain(vars["SVC_FUNCTION_HELLO_URL"]);
    for (const out of [first.stdout, first.stderr]) {
      expect(out).not.toContain(vars["DATABASE_URL"]);
      expect(out).not.toContain(API_KEY);
      expect(out).not.toContain(PLANTED_SECRET);
    }

    writeFileSync(join(dir, ".gitignore"), ".env*\n");
    const text = await runSvc(["branch", "sync", "--env", ".env.ci"], { cwd: dir, env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^No changes\. Branch preview\/feature\/one matches svc\.ts\.\n[\s\S]*Functions \(1\)\n {2}hello {2}http:\/\/127\.0\.0\.1:\d+\/ {2}Hello\n$/);

    const again = await runSvc(["branch", "sync", "--env", ".env.ci", "--write-env", ".env", "--json"], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      command: "branch sync", branchName: "preview/feature/one", created: false, result: { summary: { create: 0, update: 0, delete: 0 } },
      functions: [{ slug: "hello", url: vars["SVC_FUNCTION_HELLO_URL"] }],
    });
    expect(again.stderr).not.toContain("not ignored by git");

    const second = await runSvc(["branch", "sync", "--git-branch", "feature/Two", "--env", ".env.ci", "--write-env", ".env.two", "--env-prefix", "TWO_"], { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Created branch preview\/feature\/two /);
    expect(Object.keys(parse(readFileSync(join(dir, ".env.two"), "utf8")))).toEqual(["TWO_DATABASE_URL", "TWO_DATABASE_URL_DIRECT", "TWO_SVC_FUNCTION_HELLO_URL"]);

    const manual = await runSvc(["branch", "create", "preview/manual", "--env", ".env.ci"], { cwd: dir, env });
    expect(manual.code).toBe(0);

    expect(await runSvc(["branch", "cleanup"], { cwd: dir, env })).toMatchObject({ code: 0, stdout: "Nothing to clean up: no branch made by svc branch sync whose git branch no longer exists.\n" });

    git(dir, "branch", "-D", "-q", "feature/Two");
    const unconfirmed = await runSvc(["branch", "cleanup"], { cwd: dir, env });
    expect(unconfirmed.code).toBe(4);
    expect(unconfirmed.stdout).toMatch(/^Branches made by svc branch sync whose git branch no longer exists:\n {2}preview\/feature\/two \(br-[a-z0-9-]+\) {2}git branch feature\/Two\n$/);
    expect(unconfirmed.stderr).toContain("hint: Add --yes");
    expect(await branchNames()).toContain("preview/feature/two");

    const cleaned = await runSvc(["branch", "cleanup", "--yes", "--json"], { cwd: dir, env });
    expect(cleaned.code).toBe(0);
    const doc = JSON.parse(cleaned.stdout) as { deleted: { name: string; gitBranch: string }[]; kept: unknown[]; failed: unknown[] };
    expect(doc.deleted.map((b) => [b.name, b.gitBranch])).toEqual([["preview/feature/two", "feature/Two"]]);
    expect(await branchNames()).toEqual(expect.arrayContaining(["preview/feature/one", "preview/manual"]));
    expect(await branchNames()).not.toContain("preview/feature/two");

    const closed = await runSvc(["branch", "cleanup", "--git-branch", "feature/one", "--yes"], { cwd: dir, env });
    expect(closed.code).toBe(0);
    expect(closed.stdout).toMatch(/Deleted branch preview\/feature\/one \(br-/);
    expect(await branchNames()).not.toContain("preview/feature/one");
    expect(await branchNames()).toContain("preview/manual");
  }, 120_000);

  it("refuses a detached HEAD, and a name another git branch already synced", async () => {
    const dir = gitProject();
    const env = emulatorEnv(shared.emu(), undefined);
    git(dir, "checkout", "-q", "--detach");
    const detached = await runSvc(["branch", "sync", "--env", ".env.ci"], { cwd: dir, env });
    expect(detached.code).toBe(1);
    expect(detached.stderr).toContain("error CLI_USAGE: HEAD is detached");
    expect(detached.stderr).toContain("--git-branch");

    expect((await runSvc(["branch", "sync", "--git-branch", "fix/Clash", "--env", ".env.ci"], { cwd: dir, env })).code).toBe(0);
    const clash = await runSvc(["branch", "sync", "--git-branch", "fix/clash", "--env", ".env.ci", "--write-env", ".env"], { cwd: dir, env });
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("was synced from git branch fix/Clash, not fix/clash");
    expect(() => statSync(join(dir, ".env"))).toThrow();
  }, 60_000);
});

describe("cleanup asks the remote which git branches exist", () => {
  /** A bare remote holding `main` and `branches`, and a full clone of it to push from. */
  function remoteWith(branches: readonly string[]): { remote: string; work: string } {
    const remote = mkdtempSync(join(tmpdir(), "svc-remote-e2e-"));
    git(remote, "init", "-q", "--bare", "-b", "main");
    const work = gitProject();
    git(work, "remote", "add", "origin", remote);
    for (const name of ["main", ...branches]) git(work, "push", "-q", "origin", `main:refs/heads/${name}`);
    return { remote, work };
  }

  it("keeps previews whose branch only the remote has (a --single-branch clone after git fetch --prune), deletes one the remote lost, and refuses when the remote cannot answer", async () => {
    const { remote, work } = remoteWith(["rt-a", "rt-b"]);
    const env = emulatorEnv(shared.emu(), undefined);
    for (const name of ["rt-a", "rt-b"]) expect((await runSvc(["branch", "sync", "--git-branch", name, "--env", ".env.ci"], { cwd: work, env })).code).toBe(0);
    const ci = mkdtempSync(join(tmpdir(), "svc-ci-e2e-"));
    git(ci, "clone", "-q", "--single-branch", "--branch", "main", remote, ".");
    git(ci, "fetch", "-q", "--prune");
    cpSync(join(work, ".env.ci"), join(ci, ".env.ci"));

    // Other tests' previews (synced from branches this remote never had) may go too; rt-a and rt-b must stay.
    const deletedBy = async (args: string[]): Promise<string[]> => {
      const run = await runSvc(["branch", "cleanup", "--yes", "--env", ".env.ci", ...args], { cwd: ci, env });
      expect(run.code, run.stderr).toBe(0);
      if (!args.includes("--json")) expect(run.stderr).toContain("Checked which git branches exist against the local branches and remote origin (git ls-remote).");
      return args.includes("--json") ? (JSON.parse(run.stdout) as { deleted: { name: string }[] }).deleted.map((b) => b.name) : [];
    };
    expect(await deletedBy(["--json"])).not.toEqual(expect.arrayContaining(["preview/rt-a"]));
    expect(await branchNames()).toEqual(expect.arrayContaining(["preview/rt-a", "preview/rt-b"]));
    await deletedBy([]);

    git(work, "push", "-q", "origin", "--delete", "rt-b");
    expect(await deletedBy(["--json"])).toEqual(["preview/rt-b"]);
    expect(await branchNames()).toContain("preview/rt-a");
    expect(await branchNames()).not.toContain("preview/rt-b");

    git(ci, "remote", "set-url", "origin", join(remote, "gone.git"));
    const offline = await runSvc(["branch", "cleanup", "--yes", "--env", ".env.ci"], { cwd: ci, env });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain("error CLI_GIT_UNAVAILABLE: Cannot tell which git branches still exist: git ls-remote --heads origin failed (");
    expect(offline.stderr).toContain("nothing was deleted");
    expect(await branchNames()).toContain("preview/rt-a");
  }, 180_000);

  it.each([
    ["refs/heads/rt-c", 0, "Git branch rt-c -> platform branch preview/rt-c"],
    ["origin/rt-c", 1, '--git-branch "origin/rt-c" names a remote-tracking branch of origin; give the branch\'s own name (rt-c).'],
    ["refs/remotes/origin/rt-c", 1, "names a ref that is not a branch"],
    ["a..b", 1, '--git-branch "a..b" is not a name git can give a branch'],
    ["feat-*", 1, '--git-branch "feat-*" is not a name git can give a branch'],
    ["--help", 1, '--git-branch "--help" starts with -'],
    ["HEAD", 1, '--git-branch "HEAD" is not a name git can give a branch'],
  ])("sync --git-branch=%s exits %i", async (name, code, message) => {
    const { work } = remoteWith(["rt-c"]);
    const env = emulatorEnv(shared.emu(), undefined);
    const before = await branchNames();

    const run = await runSvc(["branch", "sync", `--git-branch=${name}`, "--env", ".env.ci"], { cwd: work, env });

    expect(run.code, run.stderr).toBe(code);
    expect(run.stderr).toContain(message);
    if (code !== 0) expect(await branchNames()).toEqual(before);
  }, 90_000);

  it("cleanup --git-branch checks the name the same way, before any platform call", async () => {
    const run = await runSvc(["branch", "cleanup", "--git-branch", "origin/rt-a", "--yes"], { cwd: gitProject(), env: { SVC_API_HOST: "http://127.0.0.1:9/api/v2", SVC_API_KEY: "k", SVC_PROJECT_ID: "p" } });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error CLI_USAGE: --git-branch "origin/rt-a" names a remote-tracking branch of origin');
  });
});

describe("--write-env on apply and connection-string", () => {
  it("writes the variables after an apply, keeps the other lines, and checks --env-prefix before applying", async () => {
    const dir = gitProject();
    const env = emulatorEnv(shared.emu(), undefined);
    expect((await runSvc(["branch", "create", "env-target", "--env", ".env.ci"], { cwd: dir, env })).code).toBe(0);

    const bad = await runSvc(["config", "apply", "--branch", "env-target", "--env", ".env.ci", "--write-env", ".env", "--env-prefix", "1BAD"], { cwd: dir, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("error CLI_USAGE: --env-prefix \"1BAD\"");
    expect(bad.stderr).not.toContain("Target:");

    writeFileSync(join(dir, ".env"), "# my settings\nPORT=3000\nAPP_DATABASE_URL=stale\n");
    chmodSync(join(dir, ".env"), 0o644);
    const applied = await runSvc(["config", "apply", "--branch", "env-target", "--env", ".env.ci", "--write-env", ".env", "--env-prefix", "APP_"], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(applied.stderr).toContain(".env had mode 0644; it now has 0600 (it holds credentials)");
    const text = readFileSync(join(dir, ".env"), "utf8");
    expect(text.startsWith("# my settings\nPORT=3000\nAPP_DATABASE_URL=postgresql://")).toBe(true);
    expect(Object.keys(parse(text))).toEqual(["PORT", "APP_DATABASE_URL", "APP_DATABASE_URL_DIRECT", "APP_SVC_FUNCTION_HELLO_URL"]);

    const conn = await runSvc(["branch", "connection-string", "--branch", "env-target", "--write-env", "conn.env", "--database", "neondb"], { cwd: dir, env });
    expect(conn).toMatchObject({ code: 0, stdout: "" });
    const vars = parse(readFileSync(join(dir, "conn.env"), "utf8"));
    expect(vars["DATABASE_URL"]).toMatch(/-pooler\./);
    expect(vars["DATABASE_URL"]?.replace("-pooler", "")).toBe(vars["DATABASE_URL_DIRECT"]);
    expect(conn.stderr).toContain("Wrote DATABASE_URL (pooled), DATABASE_URL_DIRECT (database neondb, role neondb_owner) and 1 function URL for branch env-target to conn.env");

    const missing = await runSvc(["branch", "connection-string", "--branch", "env-target", "--write-env", "conn.env", "--database", "nope"], { cwd: dir, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("has no database nope (it has: neondb)");
  }, 90_000);
});
