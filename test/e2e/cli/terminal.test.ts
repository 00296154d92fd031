import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { PLANTED_SECRET, emulatorEnv, runSvcInPty, useEmulatorProject } from "./harness.js";
import { replay } from "./screen.js";

const { emu, cwd, svc } = useEmulatorProject({ per: "test" });

const PROMPT_END = "? [y/N] ";

describe("on a pseudo-terminal at 80 columns", () => {
  it("asks before overriding, applies after y, and renders prompt and progress within 80 columns", async () => {
    const run = await runSvcInPty(["config", "apply", "--env", ".env.ci"], { cwd: cwd(), env: emulatorEnv(emu()), answer: "y\r", waitFor: PROMPT_END });
    expect(run.code).toBe(0);
    const screen = replay(run.stdout);
    // Every line fits the terminal, except the function URL, which is never cut.
    expect(screen.lines.filter((l) => !l.includes("https://") && l.length > 80)).toEqual([]);
    const text = screen.lines.join("\n");
    expect(text).toContain(
      "This apply needs confirmation:\n" +
        "  - 1 change overrides a setting or deletes a resource (--update-existing)\n" +
        `Apply 4 changes to main (${emu().defaultBranchId}) in ${emu().projectId}? [y/N] y`,
    );
    expect(text).toMatch(/^✔ Bundled 1 function in \d+\.\ds$/m);
    expect(text).toMatch(/^✔ Applied 4 changes in \d+\.\ds$/m);
    expect(text).toMatch(/^Apply complete: 3 created, 1 updated, 0 deleted in \d+\.\ds$/m);
    expect(run.stdout).toContain("\u001b[33m~\u001b[39m compute");
    expect(run.stdout).not.toContain(PLANTED_SECRET);
  });

  it("changes nothing and exits 5 when the answer is No", async () => {
    const run = await runSvcInPty(["config", "apply", "--env", ".env.ci"], { cwd: cwd(), env: emulatorEnv(emu()), answer: "\r", waitFor: PROMPT_END });
    expect(run.code).toBe(5);
    const lines = replay(run.stdout).lines;
    const after = lines.slice(lines.findIndex((l) => l.endsWith("? [y/N]")) + 1).filter((l) => l.trim() !== "");
    // One plain line: no error styling, no hint, no spinner glyph left behind.
    expect(after).toEqual(["Apply cancelled."]);
    expect(run.stdout).not.toContain("\u001b[31m");
    const again = await runSvcInPty(["config", "plan", "--detailed-exitcode", "--env", ".env.ci"], { cwd: cwd(), env: emulatorEnv(emu()) });
    expect(again.code).toBe(2);
  });

  it("applies only the plan it showed: a trigger deleted between prompt and answer stops the apply, shows the new plan and asks again", async () => {
    const ids = { projectId: emu().projectId, branchId: emu().defaultBranchId };
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    expect((await svc(["config", "apply", "--yes"])).code).toBe(0);
    // A console edit the next apply overrides, so it asks.
    const [endpoint] = await api.listEndpoints(ids);
    const edit = await api.updateEndpoint({ projectId: emu().projectId, endpointId: endpoint?.id ?? "", endpoint: { suspend_timeout_seconds: 3600 } });
    await api.waitForOperations({ projectId: emu().projectId, operations: edit.operations });
    const deleteTrigger = async (): Promise<void> => {
      const [trigger] = await api.listTriggers(ids);
      await api.deleteTrigger({ ...ids, triggerId: trigger?.trigger_id ?? "" });
    };

    const run = await runSvcInPty(["config", "apply", "--env", ".env.ci"], {
      cwd: cwd(),
      env: emulatorEnv(emu()),
      answers: [
        { waitFor: PROMPT_END, answer: "y\r", before: deleteTrigger },
        { waitFor: PROMPT_END, answer: "y\r" },
      ],
    });
    const text = replay(run.stdout).lines.join("\n");
    const [shown = "", reshown = ""] = text.split("changed after the plan was shown; nothing was applied.");
    expect(shown).toContain("~ compute");
    expect(shown).not.toContain("trigger.hourly");
    expect(shown).toContain(`Apply 1 change to main (${emu().defaultBranchId}) in ${emu().projectId}? [y/N] y`);
    expect(reshown).toMatch(/^ {2}\+ trigger\.hourly$/m);
    expect(reshown).toContain(`Apply 2 changes to main (${emu().defaultBranchId}) in ${emu().projectId}? [y/N] y`);
    expect(reshown).toMatch(/^Apply complete: 1 created, 1 updated, 0 deleted in /m);
    expect(run.code).toBe(0);
  });

  it("applies nothing when the answer to the re-shown plan is No", async () => {
    const ids = { projectId: emu().projectId, branchId: emu().defaultBranchId };
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    const run = await runSvcInPty(["config", "apply", "--env", ".env.ci"], {
      cwd: cwd(),
      env: emulatorEnv(emu()),
      answers: [
        { waitFor: PROMPT_END, answer: "y\r", before: async () => void (await api.createBucket({ ...ids, name: "avatars", access_level: "public_read" })) },
        { waitFor: PROMPT_END, answer: "n\r" },
      ],
    });
    const text = replay(run.stdout).lines.join("\n");
    expect(text).toContain("Branch main changed after the plan was shown; nothing was applied.");
    const reshown = text.split("nothing was applied.")[1] ?? "";
    expect(reshown).not.toContain("bucket.avatars");
    expect(reshown).toContain("Apply 3 changes to main");
    expect(run.code).toBe(5);
    expect(await api.listFunctions(ids)).toEqual([]);
  });

  it("branch create --if-exists apply also re-shows a plan that changed between prompt and answer", async () => {
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    const made = await api.createBranch({ projectId: emu().projectId, branch: { name: "pr-5" }, endpoints: [{ type: "read_write" }] });
    await api.waitForOperations({ projectId: emu().projectId, operations: made.operations });
    const ids = { projectId: emu().projectId, branchId: made.branch.id };
    const run = await runSvcInPty(["branch", "create", "pr-5", "--if-exists", "apply", "--env", ".env.ci"], {
      cwd: cwd(),
      env: emulatorEnv(emu(), undefined),
      answers: [
        { waitFor: PROMPT_END, answer: "y\r", before: async () => void (await api.createBucket({ ...ids, name: "avatars", access_level: "public_read" })) },
        { waitFor: PROMPT_END, answer: "y\r" },
      ],
    });
    const text = replay(run.stdout).lines.join("\n");
    const [shown = "", reshown = ""] = text.split("Branch pr-5 changed after the plan was shown; nothing was applied.");
    expect(shown).toContain("+ bucket.avatars");
    expect(reshown).not.toContain("bucket.avatars");
    expect(reshown).toMatch(/^Apply complete: /m);
    expect(run.code).toBe(0);
  });

  it("drops colours with NO_COLOR and keeps the same symbols", async () => {
    const run = await runSvcInPty(["config", "plan", "--env", ".env.ci"], { cwd: cwd(), env: { ...emulatorEnv(emu()), NO_COLOR: "1" } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\u001b[3");
    expect(replay(run.stdout).lines).toContain("  + bucket.avatars");
  });

  it("shows a diff before pull --write overwrites svc.ts, and keeps the file on No", async () => {
    const before = readFileSync(join(cwd(), "svc.ts"), "utf8");
    const run = await runSvcInPty(["config", "pull", "--write"], { cwd: cwd(), env: emulatorEnv(emu()), answer: "n\r", waitFor: PROMPT_END });
    expect(run.code).toBe(5);
    const text = replay(run.stdout).lines.join("\n");
    expect(text).toContain("--- svc.ts\n+++ svc.ts (pulled)\n@@ ");
    expect(text).toContain("Overwrite svc.ts? [y/N] n");
    expect(readFileSync(join(cwd(), "svc.ts"), "utf8")).toBe(before);
  });

  it("asks before deleting a branch and deletes it after yes", async () => {
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    const created = await api.createBranch({ projectId: emu().projectId, branch: { name: "pr-9" }, endpoints: [{ type: "read_write" }] });
    await api.waitForOperations({ projectId: emu().projectId, operations: created.operations });
    const run = await runSvcInPty(["branch", "delete", "pr-9"], { cwd: cwd(), env: emulatorEnv(emu(), undefined), answer: "yes\r", waitFor: PROMPT_END });
    expect(run.code).toBe(0);
    const text = replay(run.stdout).lines.join("\n");
    expect(text).toContain(`Delete branch pr-9 (${created.branch.id}) and everything on it? [y/N] yes`);
    expect(text).toContain(`Deleted branch pr-9 (${created.branch.id})`);
  });
});
