import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SeedDocument } from "../../../src/emulator/index.js";
import { shardOfBranch } from "../../../src/engine/fleet-shard.js";
import { API_KEY, runSvc, useEmulatorProject } from "./harness.js";

const branch = (name: string, extra: object = {}) => ({ name, endpoints: [{ type: "read_write" as const }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...extra });
const PREVIEWS = ["preview/a", "preview/b", "preview/c", "preview/d", "preview/e"];
/** Fixed ids, so which shard each branch falls in is known (the split itself is unit-tested). */
const idOf = (name: string): string => `br-shards-${name.replace("preview/", "")}`;
const SEED: SeedDocument = {
  version: 1,
  users: [{ email: "shards@example.test", plan: "scale", api_keys: [{ name: "k", key: API_KEY, admin: true }] }],
  projects: [{ owner: "shards@example.test", name: "shards", branches: [branch("main", { id: idOf("main"), default: true }), ...PREVIEWS.map((name) => branch(name, { id: idOf(name), parent: "main" }))] }],
};

const { cwd, svc } = useEmulatorProject({ emulator: { seed: SEED }, branch: false });

/** `svc config fleet merge FILES`: local files only, no target, no credentials. */
const merge = (args: readonly string[]) => runSvc(["config", "fleet", "merge", ...args], { cwd: cwd(), env: {} });

interface FleetDoc {
  fleet: { exitCode: number };
  branches: { branchName: string; result: string; exitCode: number }[];
}

/** The three shard runs the docs/fleet.md matrix job makes, each writing its summary. */
async function runShards(extra: readonly string[] = []): Promise<string[]> {
  const runs = await Promise.all([1, 2, 3].map((i) => svc(["config", "plan", "--branches", "all", "--detailed-exitcode", "--shard", `${i}/3`, "--out-summary", `summary-${i}.json`, ...extra])));
  // A shard that drew no branch has nothing to change (exit 0); the others have changes (exit 2).
  for (const run of runs) expect([0, 2], run.stderr).toContain(run.code);
  return [1, 2, 3].map((i) => `summary-${i}.json`);
}

describe("sharded fleet runs (--shard i/n, --out-summary, svc config fleet merge)", () => {
  let files: string[] = [];

  it("three shards cover every branch exactly once", async () => {
    files = await runShards();
    const shardBranches = files.map((f) => (JSON.parse(readFileSync(join(cwd(), f), "utf8")) as { rows: { branchName: string }[] }).rows.map((r) => r.branchName));
    const union = shardBranches.flat().sort();
    expect(union).toEqual(["main", ...PREVIEWS].sort());
    expect(new Set(union).size).toBe(union.length);
    expect(shardBranches).toEqual([1, 2, 3].map((shard) => ["main", ...PREVIEWS].filter((name) => shardOfBranch(idOf(name), 3) === shard)));
    expect(shardBranches.filter((names) => names.length > 0).length).toBeGreaterThan(1);
  });

  it("their merge prints exactly the table of the unsharded run, with its exit code", async () => {
    const whole = await svc(["config", "plan", "--branches", "all", "--detailed-exitcode"]);
    expect(whole.code).toBe(2);
    const merged = await merge(files);
    expect(merged.stdout).toBe(whole.stdout);
    expect(merged.code).toBe(whole.code);
  });

  it("their merge as JSON equals the unsharded run's document", async () => {
    const whole = JSON.parse((await svc(["config", "plan", "--branches", "all", "--detailed-exitcode", "--json"])).stdout) as FleetDoc;
    expect(JSON.parse((await merge(["--json", ...files])).stdout)).toEqual(whole);
  });

  it("their merge as Markdown equals the unsharded run's comment", async () => {
    const whole = await svc(["config", "plan", "--branches", "all", "--detailed-exitcode", "--markdown"]);
    expect((await merge(["--markdown", ...files])).stdout).toBe(whole.stdout);
  });

  it("refuses a summary edited by hand, a missing shard and a repeated one, naming the files", async () => {
    const doc = JSON.parse(readFileSync(join(cwd(), "summary-3.json"), "utf8")) as { rows: { exitCode: number }[] };
    for (const row of doc.rows) row.exitCode = 0;
    writeFileSync(join(cwd(), "edited.json"), JSON.stringify(doc));
    const edited = await merge(["summary-1.json", "summary-2.json", "edited.json"]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("error CLI_SUMMARY_REFUSED: edited.json was changed after svc wrote it");
    expect((await merge(["summary-1.json", "summary-2.json"])).stderr).toContain("shard 3 of 3 is missing");
    expect((await merge([...files, "summary-1.json"])).stderr).toContain("summary-1.json and summary-1.json are both shard 1 of 3");
  });

  it("refuses shards of another run and a file that is not a summary, printing nothing on stdout", async () => {
    expect((await svc(["config", "plan", "--branches", "preview/*", "--shard", "3/3", "--out-summary", "other-3.json"])).code).toBe(0);
    const mixed = await merge(["summary-1.json", "summary-2.json", "other-3.json"]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain("summary-1.json and other-3.json come from different runs: branches differs");
    expect(mixed.stdout).toBe("");
    writeFileSync(join(cwd(), "junk.json"), "{\"formatVersion\": 1, \"rows\": \"\\u001b[2J\"}");
    const junk = await merge(["junk.json"]);
    expect(junk.stderr).toContain("junk.json is not a fleet summary of this svc");
    expect(junk.stderr).not.toContain("\u001b");
  });

  it("validates --shard and needs --branches for it", async () => {
    for (const bad of ["0/3", "4/3", "x"]) {
      const run = await svc(["config", "plan", "--branches", "all", "--shard", bad]);
      expect(run.code, bad).toBe(1);
      expect(run.stderr).toContain("--shard takes i/n with whole numbers 1 <= i <= n (such as 2/4)");
    }
    const tooMany = await svc(["config", "plan", "--branches", "all", "--shard", "1/257"]);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain("Invalid option shard: must be { index, count } with whole numbers 1 <= index <= count <= 256");
    const alone = await svc(["config", "plan", "--shard", "1/2"]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain("--shard need --branches");
  });

  it("never writes the summary over the policy, and then applies nothing", async () => {
    const overPolicy = await svc(["config", "apply", "--branches", "all", "--yes", "--out-summary", "svc.ts"]);
    expect(overPolicy.code).toBe(1);
    expect(overPolicy.stderr).toContain("error CLI_LOCAL_WRITE_REFUSED: --out-summary svc.ts: it is the policy file; nothing was read or changed.");
    expect(readFileSync(join(cwd(), "svc.ts"), "utf8")).toContain("defineConfig");
  });
});
