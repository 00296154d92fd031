import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { errorDocumentSchema, planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { API_KEY, PLANTED_SECRET, emulatorEnv, runSvc, startTestEmulator, useEmulatorProject, type RunResult } from "./harness.js";

const { emu, cwd, svc } = useEmulatorProject({ per: "test" });

function expectNoSecrets(run: RunResult): void {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain(PLANTED_SECRET);
    expect(text).not.toContain(API_KEY);
  }
}

describe("svc config plan", () => {
  it("prints the text plan with marks, sensitive env and the summary, and the target echo on stderr", async () => {
    const run = await svc(["config", "plan"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}~ compute +\[override: needs --update-existing\]$/m);
    expect(run.stdout).toContain("      env.API_TOKEN: (none) -> (sensitive)");
    expect(run.stdout).toContain("  + bucket.avatars\n      access: (none) -> \"public_read\"");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("Plan: 3 to create, 1 to update, 0 to delete; 0 conflicts");
    expect(run.stderr).toMatch(/^Project {2}\S+ \(emulator\) +\[SVC_PROJECT_ID\]$/m);
    expect(run.stderr).toMatch(/^Key {6}set +\[SVC_API_KEY\]$/m);
    expect(run.stderr).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z bundle function\.hello done \d+\.\ds$/m);
    expect(run.stdout).not.toContain("\u001b[");
    expectNoSecrets(run);
  });

  it("prints a JSON document that validates against the published schema, keeping stdout clean", async () => {
    const run = await svc(["config", "plan", "--json"]);
    expect(run.code).toBe(0);
    const doc = planDocumentSchema.parse(JSON.parse(run.stdout));
    expect(doc).toMatchObject({ formatVersion: 1, command: "plan", applyable: true, target: { projectId: emu().projectId, branchIsDefault: true, sources: { projectId: "env", branch: "env", apiKey: "env", apiHost: "env" } } });
    expect(doc.changes.find((c) => c.address === "function.hello")?.fields).toContainEqual({ name: "env.API_TOKEN", before: null, after: "(sensitive)", sensitive: true });
    expect(run.stderr).toMatch(/^Target: project \S+, branch main \(br-[^)]+\), default, api http:\/\/127\.0\.0\.1:\d+\/api\/v2$/m);
    expectNoSecrets(run);
  });

  it("prints a Markdown comment with the marker, table and details, free of secrets", async () => {
    const run = await svc(["config", "plan", "--markdown"]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(`<!-- svc-plan v1 project=${emu().projectId} branch=${emu().defaultBranchId} -->\n### svc plan: main`)).toBe(true);
    expect(run.stdout).toContain("**Plan: 3 to create, 1 to update, 0 to delete; 0 conflicts**");
    expect(run.stdout).toContain("<details><summary><code>+ function.hello</code> (create)</summary>");
    expectNoSecrets(run);
  });

  it("exits 2 with --detailed-exitcode when changes are present", async () => {
    expect((await svc(["config", "plan", "--detailed-exitcode"])).code).toBe(2);
  });

  it("exits 3 with --detailed-exitcode when a conflict blocks apply, and apply refuses with exit 3", async () => {
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    await api.createBucket({ projectId: emu().projectId, branchId: emu().defaultBranchId, name: "avatars", access_level: "private" });
    const plan = await svc(["config", "plan", "--detailed-exitcode"]);
    expect(plan.code).toBe(3);
    expect(plan.stdout).toMatch(/! bucket\.avatars {2}BUCKET_ACCESS_IMMUTABLE\n.*\n.*reason: .*\n\s+resolve: /);
    const apply = await svc(["config", "apply", "--yes"]);
    expect(apply.code).toBe(3);
    expect(apply.stderr).toContain("error PLATFORM_PUSH_CONFLICT");
  });

  it("treats a repeated single-value flag and --json with --markdown as usage errors", async () => {
    const twice = await svc(["config", "plan", "--out", "a.json", "--out=b.json"]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("error CLI_USAGE: option '--out <file>' argument 'b.json' is invalid. --out was given twice.");
    const both = await svc(["config", "plan", "--json", "--markdown"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("error CLI_USAGE");
    expect(both.stderr).toContain("hint: usage: svc config plan [options]");
  });

  it("names the missing project and the missing key", async () => {
    const noProject = await svc(["config", "plan"], { env: { SVC_PROJECT_ID: undefined } });
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain("error CLI_MISSING_PROJECT");
    expect(noProject.stderr).toContain("hint: Pass --project-id or set SVC_PROJECT_ID.");
    const noKey = await svc(["config", "plan", "--json"], { env: { SVC_API_KEY: undefined } });
    expect(noKey.code).toBe(1);
    expect(errorDocumentSchema.parse(JSON.parse(noKey.stdout)).error.code).toBe("PLATFORM_MISSING_API_KEY");
  });

  it("reports a branch that does not exist with the branches that do", async () => {
    const run = await svc(["config", "plan", "--branch", "feature-x"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error PLATFORM_BRANCH_NOT_FOUND: Branch "feature-x" does not exist');
    expect(run.stderr).toContain(`hint: Create it with \`svc branch create feature-x\`, or use one of: main (${emu().defaultBranchId})`);
  });
});

describe("svc config apply", () => {
  it("refuses without a terminal, naming the flag to add, and changes nothing", async () => {
    const run = await svc(["config", "apply"], { input: "y\n" });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("error CLI_CONFIRMATION_REQUIRED");
    expect(run.stderr).toContain('hint: add --update-existing to apply 1 override change to branch "main"');
    expect((await svc(["config", "plan", "--detailed-exitcode"])).code).toBe(2);
  });

  it("refuses an inferred default branch even with --yes", async () => {
    const run = await svc(["config", "apply", "--yes"], { env: { SVC_BRANCH_ID: undefined } });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("[default branch: no --branch or SVC_BRANCH_ID]");
    expect(run.stderr).toContain("--branch main or SVC_BRANCH_ID");
  });

  it("applies with the flag, prints the outputs, and a second plan is empty (exit 0)", async () => {
    const run = await svc(["config", "apply", "--update-existing"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Apply complete: 3 created, 1 updated, 0 deleted in \d+\.\ds$/m);
    expect(run.stdout).toMatch(/^Outputs\n {2}function\.hello +http:\/\/127\.0\.0\.1:\d+\/$/m);
    expectNoSecrets(run);
    const again = await svc(["config", "plan", "--detailed-exitcode"]);
    expect(again.code).toBe(0);
    expect(again.stdout.startsWith("No changes. Branch main matches svc.ts.\n")).toBe(true);
    const noop = await svc(["deploy", "--json"]);
    expect(noop.code).toBe(0);
    expect(planDocumentSchema.parse(JSON.parse(noop.stdout)).result).toMatchObject({ status: "no-changes" });
  });

  it("prints the apply document with --json, validated against the schema", async () => {
    const run = await svc(["deploy", "--json", "--yes"]);
    expect(run.code).toBe(0);
    const doc = planDocumentSchema.parse(JSON.parse(run.stdout));
    expect(doc.command).toBe("apply");
    expect(doc.result).toMatchObject({ status: "applied", error: null });
    expect(doc.changes.every((c) => c.status === "applied")).toBe(true);
    expectNoSecrets(run);
  });

  it("prints only the target, the result line and errors with --quiet", async () => {
    const run = await svc(["config", "apply", "--yes", "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Apply complete: 3 created, 1 updated, 0 deleted in \d+\.\ds\n$/);
    expect(run.stderr).toMatch(/^Target: project [^\n]+\n$/);
  });

  it("lists applied, failed and skipped changes after a partial failure (exit 7)", async () => {
    emu().state.faults.set("status=500,method=POST,path=/api/v2/projects/*/branches/*/triggers");
    const run = await svc(["config", "apply", "--yes"]);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain("error PLATFORM_APPLY_FAILED");
    expect(run.stdout).toContain("Applied (3)");
    expect(run.stdout).toMatch(/Failed \(1\)\n {2}✘ trigger\.hourly \(create\)/);
    expect(run.stdout).toContain("Run svc config plan to see what remains.");
    expectNoSecrets(run);
  });

  it("exits 1 when the only change fails before anything was applied", async () => {
    await svc(["config", "apply", "--yes"]);
    writeFileSync(join(cwd(), "svc.ts"), readFileSync(join(cwd(), "svc.ts"), "utf8").replace('cron: "0 * * * *"', 'cron: "30 * * * *"'));
    emu().state.faults.set("status=500,method=PATCH,path=/api/v2/projects/*/branches/*/triggers/*");
    const run = await svc(["config", "apply", "--yes"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Applied (0)\n  nothing was applied");
    // The same failure with --json: the document (and only it) on stdout, saying what failed.
    const json = await svc(["config", "apply", "--yes", "--json"]);
    expect(json.code).toBe(1);
    const doc = planDocumentSchema.parse(JSON.parse(json.stdout));
    expect(doc.result).toMatchObject({ status: "failed", error: { code: "PLATFORM_APPLY_FAILED" } });
    expect(json.stderr).toContain("error PLATFORM_APPLY_FAILED");
    expectNoSecrets(json);
  });

  it("stops on Ctrl-C, says what was applied, and exits 130", async () => {
    // An emulator whose builds take long enough to interrupt one.
    const slow = await startTestEmulator({ timings: { opSchedulingMs: 0, opRunMs: 20, deployPendingMs: 10, deployBuildMs: 20_000, domainActivationMs: 10, claimTransferMs: 10 } });
    let sent = false;
    let seen = "";
    const run = await runSvc(["config", "apply", "--yes", "--env", ".env.ci"], {
      cwd: cwd(),
      env: emulatorEnv(slow),
      onStderr: (chunk, child) => {
        seen += chunk;
        if (!sent && /wait function\.hello deployment \d+ running/.test(seen)) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    }).finally(() => slow.close());
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("Interrupted: finishing what is in flight, starting nothing new");
    expect(run.stdout).toMatch(/Applied \(\d+\)/);
    expect(run.stdout).toContain("Run svc config plan to see what remains.");
  });
});

describe("saved plans", () => {
  it("writes the plan with mode 0600 and applies exactly it", async () => {
    const plan = await svc(["config", "plan", "--out", "plan.json", "--detailed-exitcode"]);
    expect(plan.code).toBe(2);
    expect(statSync(join(cwd(), "plan.json")).mode & 0o777).toBe(0o600);
    const saved = readFileSync(join(cwd(), "plan.json"), "utf8");
    expect(saved).not.toContain(PLANTED_SECRET);
    const apply = await svc(["config", "apply", "plan.json", "--update-existing"]);
    expect(apply.code).toBe(0);
    expect(apply.stderr).toMatch(/^Project .*\[plan\.json\]$/m);
    const twice = await svc(["config", "apply", "plan.json", "--update-existing"]);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain("Nothing to apply: branch main already matches plan.json (was it applied already?)");
  });

  it("refuses a stale plan with exit 6 and applies nothing", async () => {
    await svc(["config", "plan", "--out", "plan.json"]);
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    await api.createBucket({ projectId: emu().projectId, branchId: emu().defaultBranchId, name: "other", access_level: "private" });
    const run = await svc(["config", "apply", "plan.json", "--yes"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("error PLATFORM_STALE_PLAN: Branch main changed after the plan was made.");
    expect(run.stderr).toContain("hint: Re-plan");
  });

  it("refuses a file that is not a saved plan with exit 6", async () => {
    writeFileSync(join(cwd(), "plan.json"), "{ not json");
    const run = await svc(["config", "apply", "plan.json"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("error CLI_PLAN_UNREADABLE: plan.json is not a saved plan:");
  });

  it("refuses a plan made for another branch", async () => {
    await svc(["config", "plan", "--out", "plan.json"]);
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    const created = await api.createBranch({ projectId: emu().projectId, branch: { name: "other" }, endpoints: [{ type: "read_write" }] });
    const run = await svc(["config", "apply", "plan.json", "--branch", created.branch.id]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(`plan.json targets branch main (${emu().defaultBranchId})`);
  });
});

describe("network options", () => {
  it("logs one line per engine read with --verbose, from the engine's events, without the key", async () => {
    const run = await svc(["config", "plan", "--verbose"]);
    expect(run.code).toBe(0);
    const projectReads = run.stderr.split("\n").filter((l) => l.startsWith(`http GET /projects/${emu().projectId} `));
    // The engine's wave-1 read; the CLI's own target resolution is not logged a second time.
    expect(projectReads).toHaveLength(1);
    expect(projectReads[0]).toMatch(/^http GET \/projects\/[a-z0-9-]+ 200 \d+ms rid=[0-9a-f-]{36}$/);
    expect(run.stderr).toMatch(new RegExp(`^http GET /projects/${emu().projectId}/branches/${emu().defaultBranchId}/\\S+ 200 \\d+ms rid=`, "m"));
    expectNoSecrets(run);
  });

  it("logs the reads of status with --verbose, and none without it", async () => {
    const verbose = await svc(["config", "status", "--verbose"]);
    const quiet = await svc(["config", "status"]);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(new RegExp(`^http GET /projects/${emu().projectId} 200 \\d+ms rid=`, "m"));
    expect(quiet.stderr).not.toMatch(/^http /m);
    expectNoSecrets(verbose);
  });

  it("sends every request through HTTP_PROXY unless NO_PROXY names the host", async () => {
    const tunnels: string[] = [];
    const proxy: Server = createServer();
    proxy.on("connect", (req, socket, head) => {
      tunnels.push(req.url ?? "");
      const [host = "", port = "80"] = (req.url ?? "").split(":");
      const upstream = connect(Number(port), host, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const proxied = await svc(["config", "status", "--quiet"], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: "" } });
      expect(proxied.code).toBe(0);
      expect(tunnels.length).toBeGreaterThan(0);
      const count = tunnels.length;
      const direct = await svc(["config", "status", "--quiet"], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: "127.0.0.1" } });
      expect(direct.code).toBe(0);
      expect(tunnels.length).toBe(count);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
