/**
 * The hostile suite for the CLI's edges, through the `svc` command against an emulator over real
 * HTTP: every local file a command writes is checked before the platform is read or changed, a
 * write failing after an apply exits 7, and live names holding control, bidi and zero-width
 * characters reach no view or env file raw. Each refusal asserts the typed error with the flag
 * and path, the exit code, and that the platform's state and every local file are unchanged.
 */
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator/index.js";
import { API_KEY, emptyDir, emulatorEnv, ensureBuilt, projectDir, runProcess, runSvc, startTestEmulator } from "./cli/harness.js";
import { ATTACK, HOSTILE_BRANCH, HOSTILE_ROLE, hostileSeed, makeFifo, rawUnsafe, treeSnapshot } from "./hostile-edges.js";

describe("the CLI's edges: local files are checked before the platform changes", () => {
  let cli: RunningEmulator;
  beforeAll(async () => {
    await ensureBuilt();
    cli = await startTestEmulator({ seed: hostileSeed() });
  }, 180_000);
  afterAll(() => cli.close());

  /** A local write the CLI must refuse before it reads or changes anything on the platform. */
  interface EdgeRow {
    name: string;
    args: string[];
    setup?: (dir: string) => void;
    code: string;
    mentions: string;
  }
  const importing = (dir: string): void => {
    writeFileSync(join(dir, "shared.ts"), "export const shared = {};\n");
    writeFileSync(join(dir, "svc.ts"), `import "./shared.ts";\n${readFileSync(join(dir, "svc.ts"), "utf8")}`);
  };
  const outsideFile = (): string => {
    const dir = emptyDir();
    writeFileSync(join(dir, "bashrc"), "# mine\n");
    return join(dir, "bashrc");
  };
  const APPLY = ["config", "apply", "--yes", "--env", ".env.ci"];
  const EDGE_ROWS: EdgeRow[] = [
    { name: "--write-env into a directory that does not exist", args: [...APPLY, "--write-env", "missing/.env"], code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env missing/.env: it is in a directory that does not exist" },
    { name: "--write-env svc.ts (the policy)", args: [...APPLY, "--write-env", "svc.ts"], code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env svc.ts: it is the policy file" },
    { name: "--write-env on a file the policy imports", args: [...APPLY, "--write-env", "shared.ts"], setup: importing, code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env shared.ts: svc.ts imports it" },
    { name: "plan --out svc.ts", args: ["config", "plan", "--env", ".env.ci", "--out", "svc.ts"], code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--out svc.ts: it is the policy file" },
    { name: "plan --out on a file the policy imports", args: ["config", "plan", "--env", ".env.ci", "--out", "./shared.ts"], setup: importing, code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--out ./shared.ts: svc.ts imports it" },
    { name: "--write-env .env, a symlink to a file outside the project", args: [...APPLY, "--write-env", ".env"], setup: (d) => symlinkSync(outsideFile(), join(d, ".env")), code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env .env: it is a symbolic link (to " },
    { name: "--write-env .env, a FIFO", args: [...APPLY, "--write-env", ".env"], setup: (d) => makeFifo(join(d, ".env")), code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env .env: it is a FIFO (named pipe)" },
    { name: "--write-env .env, a directory", args: [...APPLY, "--write-env", ".env"], setup: (d) => mkdirSync(join(d, ".env")), code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env .env: it is a directory" },
    { name: "branch sync --write-env .env, a symlink", args: ["branch", "sync", "--git-branch", "feat", "--env", ".env.ci", "--write-env", ".env"], setup: (d) => symlinkSync(outsideFile(), join(d, ".env")), code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write-env .env: it is a symbolic link" },
    { name: "connection-string --file, a FIFO", args: ["branch", "connection-string", "--database", "neondb", "--file", "db-url"], setup: (d) => makeFifo(join(d, "db-url")), code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--file db-url: it is a FIFO" },
    { name: "pull --write when svc.ts is a symlink", args: ["config", "pull", "--write", "--yes"], setup: (d) => { renameSync(join(d, "svc.ts"), join(d, "real.ts")); symlinkSync("real.ts", join(d, "svc.ts")); }, code: "CLI_LOCAL_WRITE_REFUSED", mentions: "--write svc.ts: it is a symbolic link (to real.ts)" },
    { name: "svc db writing its env file into svc.ts", args: ["db", "--yes", "--env", "svc.ts"], code: "CLI_LOCAL_WRITE_REFUSED", mentions: "the env file svc.ts: it is the policy file" },
  ];

  it.each(EDGE_ROWS)("$name → $code, exit 1, nothing read or changed", async (row) => {
    const dir = projectDir();
    row.setup?.(dir);
    const before = { platform: cli.state.snapshot().projects, files: treeSnapshot(dir) };

    const run = await runSvc(row.args, { cwd: dir, env: { ...emulatorEnv(cli), SVC_CLAIM_API_HOST: cli.claimApiHost } });

    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`error ${row.code}: ${row.mentions}`);
    expect(run.stderr).not.toContain("Target:");
    expect(cli.state.snapshot().projects).toEqual(before.platform);
    expect(treeSnapshot(dir)).toEqual(before.files);
  }, 60_000);

  it("a local write that fails after a successful apply exits 7: applied, the local file was not written", async () => {
    const dir = projectDir();
    // The policy turns the checked target into a directory when it is evaluated: after the check, before the write.
    writeFileSync(join(dir, "svc.ts"), 'import { mkdirSync } from "node:fs";\nmkdirSync(".env.race", { recursive: true });\nexport default { buckets: { racebucket: {} } };\n');

    const run = await runSvc(["config", "apply", "--env", ".env.ci", "--write-env", ".env.race"], { cwd: dir, env: emulatorEnv(cli) });

    expect(run.code, run.stderr).toBe(7);
    expect(run.stderr).toContain("error CLI_LOCAL_WRITE_FAILED: Applied to branch main; the local file .env.race was not written: ");
    expect(run.stdout).toContain("Apply complete: 1 created");
  }, 60_000);

  it("a live role named with a line break cannot add a line to the env file (finding 2)", async () => {
    const dir = projectDir();

    const run = await runSvc(["config", "apply", "--yes", "--update-existing", "--env", ".env.ci", "--write-env", ".env"], { cwd: dir, env: emulatorEnv(cli) });

    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(join(dir, ".env"), "utf8");
    expect(text).toContain("role r\\u000aNODE_OPTIONS=--require=/tmp/svc-hostile-x.cjs");
    expect(Object.keys(parse(text)).filter((name) => !/^(?:DATABASE_URL|DATABASE_URL_DIRECT|SVC_FUNCTION_[A-Z0-9_]+_URL)$/.test(name))).toEqual([]);
    const node = await runProcess(process.execPath, ["--env-file=.env", "-e", "process.stdout.write(String(process.env.NODE_OPTIONS))"], { cwd: dir, env: {} });
    expect(node.stdout).toBe("undefined");
  }, 90_000);

  /** A view of the hostile live names: the command, the policy it runs with, and its exit code. */
  const PRUNE = "export default { prune: true };\n";
  const VIEW_ROWS: { name: string; args: string[]; svc?: string; exit: number }[] = [
    { name: "the text plan (prune deletes each hostile resource)", args: ["config", "plan"], svc: PRUNE, exit: 0 },
    { name: "the Markdown plan", args: ["config", "plan", "--markdown"], svc: PRUNE, exit: 0 },
    { name: "the DOT graph", args: ["config", "plan", "--graph", "dot"], svc: PRUNE, exit: 0 },
    { name: "the Mermaid graph", args: ["config", "plan", "--graph", "mermaid"], svc: PRUNE, exit: 0 },
    { name: "the unmanaged list", args: ["config", "plan", "--detailed-exitcode"], svc: "export default {};\n", exit: 0 },
    { name: "status of the default branch", args: ["config", "status"], exit: 0 },
    { name: "status and target echo of the hostile branch", args: ["config", "status", "--branch", HOSTILE_BRANCH], exit: 0 },
    { name: "the branch-not-found error listing the branches", args: ["config", "plan", "--branch", "name:nope"], exit: 1 },
    { name: "branch delete's confirmation refusal", args: ["branch", "delete", HOSTILE_BRANCH], exit: 4 },
    { name: "the pulled policy on stdout", args: ["config", "pull"], exit: 0 },
    { name: "the schema diff of the hostile branch against its parent", args: ["branch", "diff", HOSTILE_BRANCH], exit: 0 },
    { name: "the schema diff of the hostile branch as Markdown", args: ["branch", "diff", HOSTILE_BRANCH, "--markdown"], exit: 0 },
  ];

  it.each(VIEW_ROWS)("$name prints the hostile names escaped", async (row) => {
    const dir = projectDir();
    if (row.svc !== undefined) writeFileSync(join(dir, "svc.ts"), row.svc);

    const run = await runSvc([...row.args, "--env", ".env.ci"], { cwd: dir, env: emulatorEnv(cli) });

    expect(run.code, run.stderr).toBe(row.exit);
    expect(rawUnsafe(run.stdout), "stdout").toBeNull();
    expect(rawUnsafe(run.stderr), "stderr").toBeNull();
    expect(run.stdout + run.stderr).toContain("\\u001b");
  }, 60_000);

  it("--json carries the hostile names exactly, as JSON escapes", async () => {
    const dir = projectDir();
    writeFileSync(join(dir, "svc.ts"), PRUNE);

    const run = await runSvc(["config", "plan", "--json", "--env", ".env.ci"], { cwd: dir, env: emulatorEnv(cli) });

    expect(rawUnsafe(run.stdout)).toBeNull();
    const doc = JSON.parse(run.stdout) as { changes: { address: string }[] };
    expect(doc.changes.map((c) => c.address)).toContain(`trigger.z${ATTACK}`);
  }, 60_000);

  it("sync and cleanup print a git branch name holding bidi and zero-width characters escaped, and record it exactly", async () => {
    const dir = projectDir();
    const gitBranch = "feat\u202ecod\u200b";
    const env = emulatorEnv(cli, undefined);

    const sync = await runSvc(["branch", "sync", "--git-branch", gitBranch, "--env", ".env.ci"], { cwd: dir, env });
    const cleanup = await runSvc(["branch", "cleanup", "--git-branch", gitBranch, "--yes", "--json", "--env", ".env.ci"], { cwd: dir, env });

    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toContain("Git branch feat\\u202ecod\\u200b -> platform branch preview/feat-cod");
    expect(cleanup.code, cleanup.stderr).toBe(0);
    for (const out of [sync.stdout, sync.stderr, cleanup.stdout, cleanup.stderr]) expect(rawUnsafe(out)).toBeNull();
    expect((JSON.parse(cleanup.stdout) as { deleted: { gitBranch: string }[] }).deleted.map((b) => b.gitBranch)).toEqual([gitBranch]);
  }, 90_000);

  it("the emulator refuses control characters in a name, as the policy validation does", async () => {
    const res = await fetch(`${cli.apiHost}/projects/${cli.projectId}/branches/${cli.defaultBranchId}/roles`, {
      method: "POST",
      headers: { authorization: `Bearer ${cli.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ role: { name: HOSTILE_ROLE } }),
    });

    expect(res.status).toBe(400);
    expect(await res.text()).toContain("role.name: the name contains a control character (\\\\u000a)");
  });
});

describe("the CLI's edges: an apply that deletes hostile live names", () => {
  it("prints its plan, progress and result escaped", async () => {
    await ensureBuilt();
    const cli = await startTestEmulator({ seed: hostileSeed() });
    try {
      const dir = projectDir();
      writeFileSync(join(dir, "svc.ts"), "export default { prune: true };\n");

      const run = await runSvc(["config", "apply", "--yes", "--update-existing", "--allow-data-loss", "--env", ".env.ci"], { cwd: dir, env: emulatorEnv(cli) });

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`- trigger.z${"\\u001b[1A\\u001b[2K\\u000d  ~ nothing to see\\u000a  + forged\\u202egnp.exe\\u200b\\u0085"}`);
      expect(run.stderr).toContain("change trigger.z\\u001b[1A");
      expect(rawUnsafe(run.stdout), "stdout").toBeNull();
      expect(rawUnsafe(run.stderr), "stderr").toBeNull();
    } finally {
      await cli.close();
    }
  }, 90_000);
});

describe("the CLI's edges: an API host that redirects or answers with a decompression bomb", () => {
  beforeAll(ensureBuilt, 180_000);

  /** A loopback server answering every request with `answer` (given its path), and the requests it got. */
  async function hostileApi(answer: (res: ServerResponse, path: string) => void): Promise<{ origin: string; requests: IncomingHttpHeaders[]; paths: string[]; close: () => Promise<void> }> {
    const requests: IncomingHttpHeaders[] = [];
    const paths: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.headers);
      paths.push(req.url ?? "");
      req.resume();
      answer(res, req.url ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      origin, requests, paths,
      close: () => new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a request the server left hanging
      }),
    };
  }
  const hostEnv = (origin: string): Record<string, string> => ({ SVC_API_HOST: `${origin}/api/v2`, SVC_API_KEY: API_KEY, SVC_PROJECT_ID: "calm-river-123456", SVC_BRANCH_ID: "br-main-1" });

  it("a redirect to another host is not followed: the key never reaches it and the error names where it pointed", async () => {
    const elsewhere = await hostileApi((res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    const redirecting = await hostileApi((res) => res.writeHead(307, { location: `${elsewhere.origin}/collect?token=stolen` }).end());
    try {
      const run = await runSvc(["config", "plan", "--env", ".env.ci"], { cwd: projectDir(), env: hostEnv(redirecting.origin) });

      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain(`error PLATFORM_API_ERROR: GET /projects/calm-river-123456 failed with HTTP 307: the API answered with a redirect to ${elsewhere.origin}/collect`);
      expect(elsewhere.requests).toEqual([]);
      expect(redirecting.requests[0]?.authorization).toBe(`Bearer ${API_KEY}`);
      expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
      expect(`${run.stdout}${run.stderr}`).not.toContain("token=stolen");
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  }, 60_000);

  // The target's project and branch list are read at once: a project refused at once is reported at
  // once, whatever the branch read is still doing.
  it("a project refused at once while the branch list hangs: the project's error, without waiting for the branch read", async () => {
    const project = "/api/v2/projects/calm-river-123456";
    const api = await hostileApi((res, path) => {
      if (path === project) res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "not_found", message: "project not found" }));
      // Anything else (the branch list) is never answered.
    });
    try {
      // Held by the hanging read, the run would last the client's five 30 s attempts, past this row's limit.
      const run = await runSvc(["config", "plan", "--env", ".env.ci"], { cwd: projectDir(), env: hostEnv(api.origin) });

      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain("error PLATFORM_NOT_FOUND: GET /projects/calm-river-123456 failed with HTTP 404: project not found");
      expect(api.paths.some((path) => path.startsWith(`${project}/branches`))).toBe(true);
      expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
    } finally {
      await api.close();
    }
  }, 60_000);

  it("an answer that inflates past 64 MiB is no answer: the read is retried, then fails naming the request and the limit", async () => {
    const member = gzipSync(Buffer.alloc(1 << 20));
    const bomb = Buffer.concat(Array.from({ length: 65 }, () => member));
    const api = await hostileApi((res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb));
    try {
      const run = await runSvc(["config", "plan", "--env", ".env.ci"], { cwd: projectDir(), env: hostEnv(api.origin) });

      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain("error PLATFORM_NETWORK_ERROR: GET /projects/calm-river-123456");
      expect(run.stderr).toContain("got no response after 5 attempt(s): the answer's body inflates past 67108864 bytes");
      // The project read is the error reported; the branch list, read beside it, is retried too
      // until the process ends.
      const project = "/api/v2/projects/calm-river-123456";
      expect(api.paths.filter((path) => path === project)).toHaveLength(5);
      const others = api.paths.filter((path) => path !== project);
      expect(others.length).toBeLessThanOrEqual(5);
      expect(others.every((path) => path.startsWith(`${project}/branches`)), others.join(", ")).toBe(true);
      expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
    } finally {
      await api.close();
    }
  }, 60_000);
});
