import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { useEmulatorProject } from "./harness.js";

const project = useEmulatorProject({ per: "test" });
const { svc } = project;

describe("the text plan says everything applying it needs", () => {
  it("names --allow-protected under the summary on a protected branch", async () => {
    const api = createPlatformApi({ apiKey: project.emu().apiKey, apiHost: project.emu().apiHost });
    const updated = await api.updateBranch({ projectId: project.emu().projectId, branchId: project.emu().defaultBranchId, branch: { protected: true } });
    await api.waitForOperations({ projectId: project.emu().projectId, operations: updated.operations });
    const run = await svc(["config", "plan"]);
    expect(run.stdout).toMatch(/\nPlan: 3 to create, 1 to update, 0 to delete; 0 conflicts\nBranch main is protected: apply needs --allow-protected\.\n$/);
  });

  it("labels the deployment's code the same on a create as on an update", async () => {
    const run = await svc(["config", "plan"]);
    expect(run.stdout).toMatch(/^ {6}code: \(none\) -> "[0-9A-F]+"$/m);
    expect(run.stdout).not.toContain("codeTag");
  });

  it("drops the needs --update-existing mark when apply was given --update-existing", async () => {
    const run = await svc(["config", "apply", "--update-existing"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}~ compute +\[override\]$/m);
    expect(run.stdout).not.toContain("needs --update-existing");
  });

  it("lists every env change in text, Markdown and JSON: added and removed names (a removal is an override), and the names one of whose values may have changed", async () => {
    expect((await svc(["config", "apply", "--yes"])).code).toBe(0);
    const policy = join(project.cwd(), "svc.ts");
    writeFileSync(policy, readFileSync(policy, "utf8").replace('SHORT_FLAG: process.env.SHORT_FLAG ?? "0"', 'SHORT_FLAG: "", NEW_FLAG: "on"'));
    const edited = { env: { API_TOKEN: "rotated-token-value-5150" } };
    const valueLine = "env: the value of API_TOKEN may have changed (values redacted; the platform keeps no values to compare)";
    const text = await svc(["config", "plan"], edited);
    // Removing a deployed variable overrides what is live, so the change needs --update-existing.
    expect(text.stdout).toMatch(/\n {2}~ function\.hello +\[override: needs --update-existing\]\n/);
    expect(text.stdout).toContain(`\n      env.NEW_FLAG: (none) -> (sensitive)\n      env.SHORT_FLAG: (sensitive) -> (none)\n      ${valueLine}\n`);
    const markdown = await svc(["config", "plan", "--markdown"], edited);
    expect(markdown.stdout).toContain(`~ ${valueLine}\n`);
    const json = planDocumentSchema.parse(JSON.parse((await svc(["config", "plan", "--json"], edited)).stdout));
    expect(json.changes.find((c) => c.address === "function.hello")?.fields).toContainEqual({ name: "env", before: "(sensitive)", after: "(sensitive)", sensitive: true, names: ["API_TOKEN"] });
    for (const run of [text, markdown]) expect(run.stdout + run.stderr).not.toContain("rotated-token-value-5150");
  });

  it("with SVC_FINGERPRINT_KEY, names exactly the variable whose value changed, and a code edit reports no env at all", async () => {
    const key = { SVC_FINGERPRINT_KEY: "c3".repeat(32) };
    expect((await svc(["config", "apply", "--yes"], { env: key })).code).toBe(0);
    const edited = await svc(["config", "plan"], { env: { ...key, API_TOKEN: "rotated-token-value-5150" } });
    expect(edited.stdout).toMatch(/\n {2}~ function\.hello\n {6}env\.API_TOKEN: value changed \(sensitive\)\n {6}reason: the value of API_TOKEN changed; the archive is kept\n/);
    expect(edited.stdout).not.toContain("SHORT_FLAG");
    expect(edited.stdout + edited.stderr).not.toContain("rotated-token-value-5150");
    const source = join(project.cwd(), "functions", "hello", "index.ts");
    writeFileSync(source, readFileSync(source, "utf8").replace("`hello ", "`hi "));
    const code = await svc(["config", "plan"], { env: key });
    expect(code.stdout).toMatch(/\n {2}~ function\.hello\n {6}code: [^\n]*\n {6}reason: the function's code changed\n\nPlan: 0 to create, 1 to update/);
  });

  it("says a saved plan was applied already without listing its changes as if they would run", async () => {
    expect((await svc(["config", "plan", "--out", "plan.json"])).code).toBe(0);
    expect((await svc(["config", "apply", "plan.json", "--update-existing"])).code).toBe(0);
    const twice = await svc(["config", "apply", "plan.json", "--update-existing"]);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toBe("Nothing to apply: branch main already matches plan.json (was it applied already?)\n");
  });
});

describe("a role the policy names but nobody has", () => {
  it("a mistyped database owner and Data API anonymous role block the plan by field, each with the close name and what to do", async () => {
    const policy = join(project.cwd(), "svc.ts");
    const roles = 'roles: { app_owner: {}, web_anon: { login: false } },\n  databases: { app: { owner: "app_ownr" } },\n  auth: true,\n  dataApi: { settings: { dbAnonRole: "web_anno" } },\n  buckets:';
    writeFileSync(policy, readFileSync(policy, "utf8").replace("buckets:", roles));

    const run = await svc(["config", "plan", "--detailed-exitcode"]);

    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toContain(
      '  ! database.app  UNKNOWN_ROLE\n      owner: "app_ownr"\n      reason:  database app is to be owned by role app_ownr, which is neither on the branch nor declared under roles (did you mean "app_owner"?); declare the role under roles, or name one the branch has\n      resolve: Declare the role under roles in svc.ts (or fix the name), or create it on the branch.\n',
    );
    expect(run.stdout).toContain(
      '  ! dataApi  UNKNOWN_ROLE\n      settings.dbAnonRole: "web_anno"\n      reason:  dataApi.settings.dbAnonRole names role web_anno, which is neither on the branch nor declared under roles (did you mean "web_anon"?);',
    );
  });
});

describe("a pulled file", () => {
  it("plans clean against its branch, naming the pulled file, and gives a preview none of the default branch's tuning", async () => {
    const api = createPlatformApi({ apiKey: project.emu().apiKey, apiHost: project.emu().apiHost });
    const updated = await api.updateBranch({ projectId: project.emu().projectId, branchId: project.emu().defaultBranchId, branch: { protected: true } });
    await api.waitForOperations({ projectId: project.emu().projectId, operations: updated.operations });
    const pulled = await svc(["config", "pull"]);
    expect(pulled.code).toBe(0);
    writeFileSync(join(project.cwd(), "pulled.ts"), pulled.stdout);
    const plan = await svc(["config", "plan", "--config", "pulled.ts"]);
    expect(plan.stdout.startsWith("No changes. Branch main matches pulled.ts.\n")).toBe(true);
    const preview = await svc(["branch", "create", "pr-3", "--config", "pulled.ts", "--json"]);
    expect(preview.code).toBe(0);
    const created = (await api.listBranches({ projectId: project.emu().projectId })).find((b) => b.name === "pr-3");
    expect(created?.protected).toBe(false);
  });
});
