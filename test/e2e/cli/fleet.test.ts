import { describe, expect, it } from "vitest";
import type { SeedDocument } from "../../../src/emulator/index.js";
import { API_KEY, useEmulatorProject } from "./harness.js";

const branch = (name: string, extra: object = {}) => ({ name, endpoints: [{ type: "read_write" as const }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...extra });
const SEED: SeedDocument = {
  version: 1,
  users: [{ email: "fleet@example.test", plan: "scale", api_keys: [{ name: "k", key: API_KEY, admin: true }] }],
  projects: [{ owner: "fleet@example.test", name: "fleet", branches: [branch("main", { default: true }), branch("preview/x", { parent: "main" }), branch("preview/y", { parent: "main" })] }],
};

const { emu, svc } = useEmulatorProject({ emulator: { seed: SEED }, branch: false });

describe("svc config plan|apply --branches", () => {
  it("plans every branch and prints one summary table; --detailed-exitcode gives the worst branch's code", async () => {
    const run = await svc(["config", "plan", "--branches", "all", "--detailed-exitcode"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      [
        "Branch     Changes  Conflicts  Result",
        "main             4          0  changes",
        "preview/x        4          0  changes",
        "preview/y        4          0  changes",
        "",
        "Fleet: 3 branches: 3 changes",
        "",
      ].join("\n"),
    );
    expect(run.stderr).toContain(`Target: project ${emu().projectId}, branches all, api ${emu().apiHost}`);
  });

  it("prints the table as JSON and as Markdown", async () => {
    const json = JSON.parse((await svc(["config", "plan", "--branches", "preview/*", "--json"])).stdout) as { fleet: { exitCode: number }; branches: { branchName: string; changes: number; result: string; exitCode: number }[] };
    expect(json.fleet.exitCode).toBe(0);
    expect(json.branches.map((b) => [b.branchName, b.changes, b.result])).toEqual([["preview/x", 4, "changes"], ["preview/y", 4, "changes"]]);
    const md = (await svc(["config", "plan", "--branches", "preview/*", "--markdown"])).stdout;
    expect(md).toContain("| Branch | Changes | Conflicts | Result |\n|---|---:|---:|---|\n| preview/x | 4 | 0 | changes |\n| preview/y | 4 | 0 | changes |\n");
  });

  it("an apply without the flags a branch needs fails that branch with exit 4 and applies nothing there; with them every branch converges", async () => {
    const refused = await svc(["config", "apply", "--branches", "all"]);
    expect(refused.code).toBe(4);
    expect(refused.stdout).toContain("main             -          -  needs --update-existing");
    const applied = await svc(["config", "apply", "--branches", "all", "--yes"]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Fleet: 3 branches: 3 applied");
    const after = await svc(["config", "plan", "--branches", "all", "--detailed-exitcode"]);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("Fleet: 3 branches: 3 no changes");
  });

  it("refuses --branches with --branch or with a saved plan", async () => {
    expect((await svc(["config", "plan", "--branches", "all", "--branch", "main"])).stderr).toContain("--branches and --branch exclude each other");
    expect((await svc(["config", "apply", "plan.json", "--branches", "all"])).code).toBe(1);
  });
});
