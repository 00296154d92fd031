import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SeedDocument } from "../../../src/emulator/index.js";
import { API_KEY, ROOT, useEmulatorProject } from "./harness.js";

const branch = (name: string, extra: object = {}) => ({ name, endpoints: [{ type: "read_write" as const }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...extra });
const SEED: SeedDocument = {
  version: 1,
  users: [{ email: "checks@example.test", plan: "scale", api_keys: [{ name: "k", key: API_KEY, admin: true }] }],
  projects: [
    {
      owner: "checks@example.test",
      name: "checks",
      branches: [
        branch("main", { default: true, buckets: [{ name: "old" }], objects: [{ bucket: "old", key: "keep.txt", size: 3 }] }),
        branch("preview/a", { parent: "main" }),
        branch("preview/b", { parent: "main" }),
      ],
    },
  ],
};

/** A function env value that a check quotes back: no output may carry it, whichever home declares the function. */
const HOME_SECRET = "declared-env-value-5151";

/** Secrets each view writes encoded (a PEM key's line breaks, JSON's and Markdown's escapes, a bidi override); `zq7` marks each. */
const SHAPED_SECRETS = {
  PEM: "-----BEGIN KEY-----\nMIIEzq7pemBODY\n-----END KEY-----",
  QUOTED: 'quo"te\\back-zq7-value',
  MARKED: "*star_zq7_<&>|`tick`",
  BIDI: "bidi\u202ezq7-secret",
};

/** The four examples of docs/checks.md, each a complete svc.checks.ts, in page order. */
const EXAMPLES = [...readFileSync(join(ROOT, "docs", "checks.md"), "utf8").matchAll(/```ts\n(\/\/ svc\.checks\.ts\n[\s\S]*?)```/g)].map((m) => m[1] ?? "");

/** A policy that breaks every example: a public bucket, a pruned bucket with objects on main, big previews without a ttl. */
const VARIANT = `import { defineConfig } from "svc-config/v1";
export default defineConfig({
  buckets: { avatars: { access: "public_read" } },
  prune: { buckets: true },
  branch: (t) => (t.isDefault ? {} : { postgres: { computeSettings: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 4 } } }),
});
`;

const { emu, cwd, svc } = useEmulatorProject({
  emulator: { seed: SEED },
  branch: false,
  prepare: (dir) => {
    for (const [i, source] of EXAMPLES.entries()) writeFileSync(join(dir, `example-${i + 1}.ts`), source);
    writeFileSync(join(dir, "variant.ts"), VARIANT);
    writeFileSync(join(dir, "advisory.ts"), (EXAMPLES[0] ?? "").replace('"mandatory"', '"advisory"'));
    writeFileSync(join(dir, "throws.ts"), `import { defineCheck } from "svc-config/v1";
export default [
  defineCheck({ name: "explodes", enforcement: "advisory", validatePlan() { throw new Error("no budget table"); } }),
  defineCheck({ name: "throws-a-string", enforcement: "advisory", validateChange() { throw "plain text"; } }),
];
`);
    writeFileSync(join(dir, "hostile.ts"), `import { defineCheck } from "svc-config/v1";
export default [
  defineCheck({ name: "mutates", enforcement: "advisory", validateChange(change) { change.after.access = "private"; } }),
  defineCheck({ name: "exits", enforcement: "advisory", validatePlan() { process.exit(0); } }),
  defineCheck({ name: "spins", enforcement: "advisory", validatePlan() { for (;;) {} } }),
  defineCheck({ name: "shouts", enforcement: "advisory", validatePlan(_p, ctx) { ctx.report("\\u001b[2Jcleared\\nerror FAKE: forged line " + "x".repeat(5000)); } }),
];
`);
    writeFileSync(join(dir, "quotes-env.ts"), `import { defineCheck } from "svc-config/v1";
export default [defineCheck({ name: "quotes-env", enforcement: "advisory", validatePlan(_p, ctx) { ctx.report("env " + JSON.stringify(ctx.policy.functions.map((fn) => fn.env))); } })];
`);
    const fn = (home: string) => `{ hello: { name: "Hello", source: "./functions/hello", env: { GREETING: ${JSON.stringify(HOME_SECRET)} + "-${home}" } } }`;
    writeFileSync(join(dir, "env-top.ts"), `export default { functions: ${fn("top")} };\n`);
    writeFileSync(join(dir, "env-preview.ts"), `export default { preview: { functions: ${fn("preview")} } };\n`);
    writeFileSync(join(dir, "quotes-raw.ts"), `import { defineCheck } from "svc-config/v1";
export default [defineCheck({ name: "quotes-raw", enforcement: "advisory", validatePlan(_p, ctx) { for (const fn of ctx.policy.functions) for (const value of Object.values(fn.env)) ctx.report("value " + value); } })];
`);
    writeFileSync(join(dir, "quotes-encoded.ts"), `import { defineCheck } from "svc-config/v1";
export default [defineCheck({ name: "quotes-encoded", enforcement: "advisory", validatePlan(_p, ctx) { for (const fn of ctx.policy.functions) for (const value of Object.values(fn.env)) { ctx.report("x".repeat(1994) + value); ctx.report("m".repeat(294) + value); ctx.report("basic " + Buffer.from("user:" + value).toString("base64")); ctx.report("url " + encodeURIComponent(value)); } } })];
`);
    writeFileSync(join(dir, "env-shapes.ts"), `export default { functions: { hello: { name: "Hello", source: "./functions/hello", env: ${JSON.stringify(SHAPED_SECRETS)} } } };\n`);
    writeFileSync(join(dir, "bad-name.ts"), `import { defineCheck } from "svc-config/v1";
export default [defineCheck({ name: "evil\\u001b[31m", enforcement: "mandatory", validatePlan() {} })];
`);
  },
});

interface CheckDoc {
  name: string;
  enforcement: string;
  violations: { address: string | null; message: string }[];
  error: string | null;
}

async function planChecks(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; checks: CheckDoc[] }> {
  const run = await svc(["config", "plan", "--json", "--detailed-exitcode", ...args], { env });
  const doc = JSON.parse(run.stdout) as { checks?: CheckDoc[] };
  return { code: run.code, checks: doc.checks ?? [] };
}

describe("policy checks (docs/checks.md)", () => {
  it("ships four examples as complete svc.checks.ts files", () => {
    expect(EXAMPLES).toHaveLength(4);
  });

  it("example 1: a public bucket on the default branch fails (plan --detailed-exitcode exits 8), a preview passes", async () => {
    const publicBucket = await planChecks(["--checks", "example-1.ts", "--branch", "main"]);
    expect(publicBucket.checks).toEqual([{ name: "no-public-bucket-on-default", enforcement: "mandatory", violations: [{ address: "bucket.avatars", message: "bucket avatars is public on the default branch" }], error: null }]);
    expect(publicBucket.code).toBe(8);
    expect((await planChecks(["--checks", "example-1.ts", "--branch", "preview/a"])).checks[0]?.violations).toEqual([]);
  });

  it("example 2: a preview above 2 CU fails, the fixture's preview passes", async () => {
    const bigPreview = await planChecks(["--config", "variant.ts", "--checks", "example-2.ts", "--branch", "preview/a"]);
    expect(bigPreview.checks[0]?.violations).toEqual([{ address: "compute", message: "previews run at most 2 CU; svc.ts asks for 4" }]);
    expect((await planChecks(["--checks", "example-2.ts", "--branch", "preview/a"])).checks[0]?.violations).toEqual([]);
  });

  it("example 3: a preview without a ttl fails, one with a ttl passes", async () => {
    const noTtl = await planChecks(["--config", "variant.ts", "--checks", "example-3.ts", "--branch", "preview/a"]);
    expect(noTtl.checks[0]?.violations).toEqual([{ address: "branch", message: 'previews need a ttl: return { ttl: "7d" } for them from branch: (t) => …' }]);
    expect((await planChecks(["--checks", "example-3.ts", "--branch", "preview/a"])).checks[0]?.violations).toEqual([]);
  });

  it("example 4: deleting a bucket that holds objects fails unless ALLOW_DESTRUCTIVE=1", async () => {
    const destructive = await planChecks(["--config", "variant.ts", "--checks", "example-4.ts", "--branch", "main"]);
    expect(destructive.checks[0]?.violations).toEqual([{ address: "bucket.old", message: "delete loses data: label the pull request allow-destructive to run it" }]);
    const labelled = await planChecks(["--config", "variant.ts", "--checks", "example-4.ts", "--branch", "main"], { ALLOW_DESTRUCTIVE: "1" });
    expect(labelled.checks[0]?.violations).toEqual([]);
    expect(labelled.code).toBe(2);
  });

  it("a failed mandatory check blocks apply with exit 8 before anything changes; text and Markdown show it", async () => {
    const refused = await svc(["config", "apply", "--yes", "--checks", "example-1.ts", "--branch", "main"]);
    expect(refused.code).toBe(8);
    expect(refused.stdout).toContain("Checks\n  FAIL  no-public-bucket-on-default  (mandatory)\n        bucket.avatars: bucket avatars is public on the default branch\n");
    expect(refused.stderr).toContain("error PLATFORM_CHECK_FAILED: Cannot apply to branch \"main\": 1 mandatory check(s) failed; nothing was changed.");
    expect(refused.stderr).toContain("  - check no-public-bucket-on-default: bucket.avatars: bucket avatars is public on the default branch");
    // Nothing was applied: the plan still has every change.
    expect((await svc(["config", "plan", "--detailed-exitcode", "--branch", "main"])).code).toBe(2);
    const md = await svc(["config", "plan", "--markdown", "--checks", "example-1.ts", "--branch", "main"]);
    expect(md.stdout).toContain("#### Checks\n\n- **FAIL** no-public-bucket-on-default (mandatory)\n  - bucket.avatars: bucket avatars is public on the default branch");
  });

  it("a saved plan is checked before it is applied", async () => {
    expect((await svc(["config", "plan", "--out", "plan.json", "--branch", "main"])).code).toBe(0);
    const refused = await svc(["config", "apply", "plan.json", "--yes", "--checks", "example-1.ts"]);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toContain("check no-public-bucket-on-default");
  });

  it("a check that throws blocks apply and is named, whatever its enforcement", async () => {
    const run = await svc(["config", "apply", "--yes", "--checks", "throws.ts", "--branch", "preview/b"]);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain("check explodes failed: threw Error: no budget table");
    expect(run.stderr).toContain('check throws-a-string failed: threw "plain text"');
    expect(run.stdout).toContain("FAIL  explodes  (failed: counts as mandatory)");
  });

  it("an advisory violation warns and the apply goes on", async () => {
    const run = await svc(["config", "apply", "--yes", "--checks", "advisory.ts", "--branch", "main"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  WARN  no-public-bucket-on-default  (advisory)\n        bucket.avatars: bucket avatars is public on the default branch\n");
    expect(run.stdout).toContain("Checks: 0 of 1 passed, 1 warned");
  });

  it("branch create checks the new branch before creating it; fleets report each branch", async () => {
    const refused = await svc(["branch", "create", "pr-9", "--config", "variant.ts", "--checks", "example-3.ts"]);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toContain("check preview-has-ttl: branch: previews need a ttl");
    const branches = await fetch(`${emu().apiHost}/projects/${emu().projectId}/branches`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(((await branches.json()) as { branches: { name: string }[] }).branches.map((b) => b.name)).not.toContain("pr-9");

    const fleet = await svc(["config", "plan", "--branches", "all", "--detailed-exitcode", "--config", "variant.ts", "--checks", "example-3.ts"]);
    expect(fleet.code).toBe(8);
    expect(fleet.stdout).toMatch(/main +\d+ +0 +changes\n/);
    expect(fleet.stdout).toMatch(/preview\/a +\d+ +0 +checks failed\n/);
  });

  it("branch create --if-exists apply checks the existing branch before applying, and says once which checks it loaded", async () => {
    const refused = await svc(["branch", "create", "preview/a", "--if-exists", "apply", "--yes", "--config", "variant.ts", "--checks", "example-3.ts"]);
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain("check preview-has-ttl: branch: previews need a ttl");
    expect(refused.stderr.split("\n").filter((line) => line.startsWith("Checks: "))).toEqual(["Checks: example-3.ts (1 check)"]);
    expect((await svc(["config", "plan", "--detailed-exitcode", "--config", "variant.ts", "--branch", "preview/a"])).code).toBe(2);
  });

  it("branch sync checks an existing preview before applying and a new one before creating it", async () => {
    const existing = await svc(["branch", "sync", "--git-branch", "a", "--yes", "--config", "variant.ts", "--checks", "example-3.ts"]);
    expect(existing.code, existing.stderr).toBe(8);
    expect(existing.stderr).toContain("check preview-has-ttl: branch: previews need a ttl");
    expect((await svc(["config", "plan", "--detailed-exitcode", "--config", "variant.ts", "--branch", "preview/a"])).code).toBe(2);

    const fresh = await svc(["branch", "sync", "--git-branch", "c", "--yes", "--config", "variant.ts", "--checks", "example-3.ts"]);
    expect(fresh.code, fresh.stderr).toBe(8);
    expect(fresh.stderr).toContain("check preview-has-ttl: branch: previews need a ttl");
    const branches = await fetch(`${emu().apiHost}/projects/${emu().projectId}/branches`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(((await branches.json()) as { branches: { name: string }[] }).branches.map((b) => b.name)).not.toContain("preview/c");
  });

  it("a fleet apply refuses each branch whose mandatory check fails and applies nothing to it", async () => {
    // A bucket and no ttl for previews: nothing but the check stands in the way.
    writeFileSync(join(cwd(), "no-ttl.ts"), "export default { buckets: { extra: {} } };\n");
    const run = await svc(["config", "apply", "--branches", "preview/*", "--yes", "--config", "no-ttl.ts", "--checks", "example-3.ts"]);
    expect(run.code, run.stdout + run.stderr).toBe(8);
    expect(run.stdout).toMatch(/preview\/a +\d+ +0 +checks failed\n/);
    expect(run.stdout).toMatch(/preview\/b +\d+ +0 +checks failed\n/);
    expect((await svc(["config", "plan", "--detailed-exitcode", "--config", "no-ttl.ts", "--branch", "preview/b"])).code).toBe(2);
  });

  it("svc config validate loads the checks too: counts them, and names the checks file in each issue", async () => {
    const valid = await svc(["config", "validate", "--no-bundle", "--checks", "example-3.ts"]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toBe("svc.ts is valid (bundling skipped); example-3.ts holds 1 check.\n");

    const invalid = await svc(["config", "validate", "--no-bundle", "--checks", "bad-name.ts"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("error PLATFORM_CONFIG_INVALID: bad-name.ts has 1 issue:\n  - bad-name.ts: defineCheck.name: contains a control character");
    expect(invalid.stderr).toContain("hint: Fix each listed field in bad-name.ts, then run svc config validate.");
    expect(invalid.stderr).not.toContain("\u001b[31m");

    const missing = await svc(["config", "validate", "--no-bundle", "--checks", "missing.ts", "--json"]);
    expect(missing.code).toBe(1);
    const doc = JSON.parse(missing.stdout) as { valid: boolean; issues: { file?: string; message: string }[] };
    expect(doc.valid).toBe(false);
    expect(doc.issues).toHaveLength(1);
    expect(doc.issues[0]?.file).toBe("missing.ts");
    expect(doc.issues[0]?.message).toContain("missing.ts does not exist");
  });

  it("finds svc.checks.ts beside svc.ts without a flag", async () => {
    writeFileSync(join(cwd(), "svc.checks.ts"), EXAMPLES[2] ?? "");
    try {
      const run = await svc(["config", "plan", "--branch", "preview/a"]);
      expect(run.stderr).toContain("Checks: svc.checks.ts (1 check)");
      expect(run.stdout).toContain("Checks: 1 passed");
      const validated = await svc(["config", "validate", "--no-bundle", "--json"]);
      expect(JSON.parse(validated.stdout)).toMatchObject({ valid: true, checksPath: "svc.checks.ts", checks: [{ name: "preview-has-ttl", enforcement: "mandatory" }] });
    } finally {
      rmSync(join(cwd(), "svc.checks.ts"));
    }
  });

  it("hostile checks: writing to the plan, process.exit, an endless loop and forged output are each a failure naming the check; nothing applied, svc lives", async () => {
    const run = await svc(["config", "apply", "--yes", "--checks", "hostile.ts", "--eval-timeout", "1", "--branch", "preview/b"]);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain("check mutates failed: threw TypeError: ");
    expect(run.stderr).toContain("check exits failed: called process.exit(0)");
    expect(run.stderr).toContain("check spins failed: did not finish within 1 s");
    // A forged line stays inside its own line, escape sequences shown as text, the message cut.
    expect(run.stdout + run.stderr).not.toContain("\u001b[2J");
    expect(run.stdout).toContain("\\u001b[2Jcleared\\u000aerror FAKE: forged line");
    expect(run.stdout).toMatch(/x… \(\d+ more characters\)/);
    expect(run.stderr.split("\n").filter((l) => l.startsWith("error "))).toHaveLength(1);
    expect((await svc(["config", "plan", "--detailed-exitcode", "--branch", "preview/b"])).code).toBe(2);
  });

  it.each(["top", "preview"])("hostile check quoting the env values of functions declared under %s: the values are scrubbed from text and --json", async (home) => {
    const args = ["config", "plan", "--config", `env-${home}.ts`, "--checks", "quotes-env.ts", "--branch", "preview/b"];
    const text = await svc(args);
    const json = await svc([...args, "--json"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('env [{"GREETING":"(sensitive)"}]');
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('env [{\\"GREETING\\":\\"(sensitive)\\"}]');
    expect(text.stdout + text.stderr + json.stdout + json.stderr).not.toContain(HOME_SECRET);
  });

  it("hostile check quoting env values that each view encodes (line breaks, quotes, backslashes, Markdown, bidi): scrubbed in text, --json and --markdown", async () => {
    const args = ["config", "plan", "--config", "env-shapes.ts", "--checks", "quotes-raw.ts", "--branch", "preview/b"];
    for (const format of [[], ["--json"], ["--markdown"]]) {
      const run = await svc([...args, ...format]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("value (sensitive)");
      expect(run.stdout + run.stderr).not.toContain("zq7");
    }
  });

  it("hostile check quoting env values base64-encoded (a Basic credential), percent-encoded, or where a view cuts the message: none of those forms is written", async () => {
    const value = `${HOME_SECRET}-top`;
    const leaked = [`x${value.slice(0, 6)}`, `m${value.slice(0, 6)}`, Buffer.from(value).toString("base64").slice(0, 12), Buffer.from(`user:${value}`).toString("base64").slice(8, 20), encodeURIComponent(SHAPED_SECRETS.QUOTED)];
    for (const config of ["env-top.ts", "env-shapes.ts"]) {
      for (const format of [[], ["--json"], ["--markdown"]]) {
        const run = await svc(["config", "plan", "--config", config, "--checks", "quotes-encoded.ts", "--branch", "preview/b", ...format]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain("(sensitive)…");
        for (const form of leaked) expect(run.stdout + run.stderr, `${config} ${format.join("")}`).not.toContain(form);
        expect(run.stdout + run.stderr).not.toContain("zq7");
      }
    }
  });

  it("a check name with control characters is refused when the file loads, naming the path", async () => {
    const run = await svc(["config", "plan", "--checks", "bad-name.ts", "--branch", "preview/b"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("defineCheck.name: contains a control character");
    expect(run.stderr).not.toContain("\u001b[31m");
  });
});
