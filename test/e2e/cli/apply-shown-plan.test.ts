/**
 * `svc config apply --yes` runs exactly the plan it showed: a branch changed between the plan and
 * its first change (here by the `deploy.before` hook, which runs after the gate) stops the apply
 * with `PLATFORM_STALE_PLAN` (exit 6) and nothing applied, whether the change is one the first
 * read wave sees (the endpoint) or only the second (a bucket).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { ROOT, useEmulatorProject } from "./harness.js";

const { emu, cwd, svc } = useEmulatorProject({ per: "test" });

/** Gives the project a `deploy.before` hook running `intrude.mjs`, which does `edit` to the branch through the built library. */
function intrudeBeforeDeploy(edit: string): void {
  const policy = join(cwd(), "svc.ts");
  writeFileSync(policy, readFileSync(policy, "utf8").replace("  branch: (t)", '  hooks: { deploy: { before: "node intrude.mjs" } },\n  branch: (t)'));
  const ref = { projectId: emu().projectId, branchId: emu().defaultBranchId };
  writeFileSync(join(cwd(), "intrude.mjs"), [
    `import { createPlatformApi } from ${JSON.stringify(join(ROOT, "dist", "v1.js"))};`,
    `const api = createPlatformApi({ apiKey: ${JSON.stringify(emu().apiKey)}, apiHost: ${JSON.stringify(emu().apiHost)} });`,
    `const ref = ${JSON.stringify(ref)};`,
    edit,
    "",
  ].join("\n"));
}

async function expectNothingApplied(): Promise<void> {
  const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
  const ref = { projectId: emu().projectId, branchId: emu().defaultBranchId };
  expect(await api.listFunctions(ref)).toEqual([]);
  expect((await api.listBuckets(ref)).map((b) => b.name)).not.toContain("avatars");
}

describe("svc config apply --yes, the branch changed after the plan was shown", () => {
  it("applies the shown plan when the hook changes nothing", async () => {
    intrudeBeforeDeploy("await api.listBuckets(ref);");
    const run = await svc(["config", "apply", "--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Apply complete: 3 created, 1 updated, 0 deleted in /m);
  });

  it("refuses with exit 6 when a bucket was created (seen by the second read wave only)", async () => {
    intrudeBeforeDeploy('await api.createBucket({ ...ref, name: "intruder", access_level: "private" });');
    const run = await svc(["config", "apply", "--yes"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("error PLATFORM_STALE_PLAN: Branch main changed after the plan was shown; nothing was applied.");
    await expectNothingApplied();
  });

  it("refuses with exit 6 when the endpoint was edited (seen by the first read wave)", async () => {
    intrudeBeforeDeploy([
      "const [endpoint] = await api.listEndpoints(ref);",
      "const edit = await api.updateEndpoint({ projectId: ref.projectId, endpointId: endpoint.id, endpoint: { suspend_timeout_seconds: 3600 } });",
      "await api.waitForOperations({ projectId: ref.projectId, operations: edit.operations });",
    ].join("\n"));
    const run = await svc(["config", "apply", "--yes"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("error PLATFORM_STALE_PLAN: Branch main changed after the plan was shown; nothing was applied.");
    await expectNothingApplied();
  });
});
