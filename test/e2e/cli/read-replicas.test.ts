/** `svc` with read replicas, as a user runs it: the plan's text, the override gate, apply, a clean second plan and the pull round trip. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { useEmulatorProject } from "./harness.js";

const { emu, cwd, svc } = useEmulatorProject();

const POLICY = `import { defineConfig } from "svc-config/v1";

export default defineConfig({
  branch: () => ({ readReplicas: { analytics: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4 }, reports: { suspendTimeout: "10m" }, legacy: false } }),
});
`;

beforeAll(async () => {
  const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
  const ref = { projectId: emu().projectId, branchId: emu().defaultBranchId };
  for (const name of ["reports", "legacy"]) await api.waitForOperations({ ...ref, operations: (await api.createEndpoint({ ...ref, endpoint: { type: "read_only", name } })).operations });
  writeFileSync(join(cwd(), "svc.ts"), POLICY);
});

describe("svc config with read replicas", () => {
  it("plans a create, a resize and a removal, the last two marked as needing --update-existing", async () => {
    const run = await svc(["config", "plan", "--detailed-exitcode"]);
    expect(run.code).toBe(2);
    const heads = run.stdout.split("\n").filter((line) => /^ {2}[-+~] /.test(line)).map((line) => line.replace(/ +/g, " ").trim());
    expect(heads.sort()).toEqual(["+ readReplica.analytics", "- readReplica.legacy [override: needs --update-existing]", "~ readReplica.reports [override: needs --update-existing]"]);
    expect(run.stdout).toContain("Plan: 1 to create, 1 to update, 1 to delete; 0 conflicts");
  });

  it("refuses to remove or resize unconfirmed (no terminal, no --update-existing) and changes nothing, then applies with the flag and plans clean", async () => {
    const refused = await svc(["config", "apply"], { input: "y\n" });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('hint: add --update-existing to apply 2 override changes to branch "main"');
    const unchanged = await svc(["config", "plan", "--detailed-exitcode"]);
    expect(unchanged.stdout).toContain("Plan: 1 to create, 1 to update, 1 to delete; 0 conflicts");
    const run = await svc(["config", "apply", "--update-existing"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Apply complete: 1 created, 1 updated, 1 deleted in \d+\.\ds$/m);
    const again = await svc(["config", "plan", "--detailed-exitcode"]);
    expect([again.code, again.stdout.startsWith("No changes. Branch main matches svc.ts.\n")]).toEqual([0, true]);
  });

  it("pulls the replicas into a file that plans clean", async () => {
    const pulled = await svc(["config", "pull"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain("readReplicas: {");
    writeFileSync(join(cwd(), "pulled.ts"), pulled.stdout);
    const plan = await svc(["config", "plan", "--config", "pulled.ts", "--detailed-exitcode"]);
    expect([plan.code, plan.stdout.startsWith("No changes. Branch main matches pulled.ts.\n")]).toEqual([0, true]);
  });
});
