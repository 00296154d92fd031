import { afterAll, describe, expect, it } from "vitest";
import { defineCheck } from "../../../src/engine/checks-define.js";
import { loadChecksFromFile } from "../../../src/engine/checks-load.js";
import { blockingChecks, runChecks, type CheckInput } from "../../../src/engine/checks-run.js";
import { isPlatformError } from "../../../src/errors/platform-error.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import type { Change } from "../../../src/model/plan.js";
import { createTempTree } from "../../helpers/temp-dir.js";

const bucket: Change = { id: "create:bucket.avatars", address: "bucket.avatars", kind: "bucket", action: "create", class: "additive", fields: ["*"], before: null, after: { access: "public_read" }, reason: "declared, absent", dependsOn: [] };
const compute: Change = { id: "update:compute", address: "compute", kind: "compute", action: "update", class: "override", fields: ["autoscalingLimitMaxCu"], before: { autoscalingLimitMaxCu: 2 }, after: { autoscalingLimitMaxCu: 8 }, reason: "drift", dependsOn: [] };

function input(): CheckInput {
  const live = {
    project: { id: "p", name: "proj", regionId: "r", pgVersion: 17, defaultCompute: {} },
    branch: { id: "br-main", name: "main", createdAt: "2025-01-01T00:00:00Z", protected: false, isDefault: true },
    compute: null,
    bucketHasObjects: new Map([["old", true]]),
  } as unknown as LiveState;
  return {
    target: { projectId: "p", projectName: "proj", branchId: "br-main", branchName: "main", isDefault: true, protected: false, exists: true },
    policy: { target: { name: "main", exists: true }, buckets: [{ name: "avatars", access: "public_read" }], branch: { compute: { maxCu: 8 } } } as unknown as ResolvedPolicy,
    live,
    plan: { projectId: "p", branchId: "br-main", branchName: "main", changes: [bucket, compute], conflicts: [], unmanaged: [], warnings: [], summary: { create: 1, update: 1, delete: 0, conflicts: 0 } },
  };
}

const tree = createTempTree({ "svc.ts": "export default {};\n" });
afterAll(() => tree.remove());

/** Loads checks written in a real checks file, with a short time limit. */
async function fromFile(source: string, evaluationTimeoutMs = 400) {
  const file = tree.write(`checks-${Math.random().toString(36).slice(2)}.ts`, `import { defineCheck } from "svc-config/v1";\n${source}\n`);
  return (await loadChecksFromFile({ path: file, evaluationTimeoutMs })).checks;
}

describe("runChecks", () => {
  it("reports violations per change (the change's address by default) and per plan, with each check's enforcement", async () => {
    const checks = [
      defineCheck({ name: "no-public-buckets", enforcement: "mandatory", validateChange: (c, ctx) => { if (c.kind === "bucket" && (c.after as { access?: string } | null)?.access === "public_read") ctx.report("public bucket"); } }),
      defineCheck({ name: "small-compute", enforcement: "advisory", validatePlan: (plan, ctx) => { if (plan.changes.length > 1) ctx.report("two changes", { address: "compute" }); } }),
      defineCheck({ name: "quiet", enforcement: "mandatory", validatePlan: () => undefined }),
    ];
    const results = await runChecks(checks, input());
    expect(results).toEqual([
      { name: "no-public-buckets", enforcement: "mandatory", violations: [{ address: "bucket.avatars", message: "public bucket" }] },
      { name: "small-compute", enforcement: "advisory", violations: [{ address: "compute", message: "two changes" }] },
      { name: "quiet", enforcement: "mandatory", violations: [] },
    ]);
    expect(blockingChecks(results).map((r) => r.name)).toEqual(["no-public-buckets"]);
  });

  it("gives checks read-only copies: a check that writes to the plan, the policy or the live state fails, and the engine's data is unchanged", async () => {
    const given = input();
    const before = JSON.stringify(given);
    const writes: [string, (c: Change, ctx: Parameters<NonNullable<Parameters<typeof defineCheck>[0]["validatePlan"]>>[1]) => void][] = [
      ["after", (c) => { (c.after as Record<string, unknown>).access = "private"; }],
      ["changes", (_c, ctx) => { (ctx.plan.changes as unknown as Change[]).push(bucket); }],
      ["policy", (_c, ctx) => { (ctx.policy.buckets as unknown as unknown[]).length = 0; }],
      ["live map", (_c, ctx) => { (ctx.live as unknown as { bucketHasObjects: Map<string, boolean> }).bucketHasObjects.set("old", false); }],
      ["report", (_c, ctx) => { (ctx as { report: unknown }).report = null; }],
    ];
    const results = await runChecks(writes.map(([name, write]) => defineCheck({ name, enforcement: "advisory", validateChange: (c, ctx) => write(c as Change, ctx) })), given);
    for (const r of results) {
      expect(r.enforcement, r.name).toBe("mandatory");
      expect(r.error, r.name).toMatch(/^threw TypeError: /);
    }
    expect(JSON.stringify(given)).toBe(before);
    expect(given.live?.bucketHasObjects?.get("old")).toBe(true);
  });

  it("turns what a hostile check does into a mandatory failure naming it, and the process lives on", async () => {
    const checks = await fromFile(`
export default [
  defineCheck({ name: "loops", enforcement: "advisory", validatePlan() { for (;;) {} } }),
  defineCheck({ name: "never settles", enforcement: "advisory", validatePlan: () => new Promise(() => {}) }),
  defineCheck({ name: "exits", enforcement: "advisory", validatePlan() { process.exit(3); } }),
  defineCheck({ name: "exits later", enforcement: "advisory", async validatePlan() { await null; try { process.exit(0); } catch {} } }),
  defineCheck({ name: "throws a string", enforcement: "advisory", validatePlan() { throw "no"; } }),
  defineCheck({ name: "throws null", enforcement: "advisory", validatePlan() { throw null; } }),
  defineCheck({ name: "throws a trap", enforcement: "advisory", validatePlan() { throw new Proxy({}, { get() { throw new Error("trap"); } }); } }),
  defineCheck({ name: "rejects", enforcement: "advisory", async validateChange() { throw new RangeError("bad change"); } }),
  defineCheck({ name: "pollutes", enforcement: "advisory", async validatePlan() { await null; (Object.prototype as Record<string, unknown>).allowDataLoss = true; } }),
  defineCheck({ name: "misreports", enforcement: "advisory", validatePlan(_p, ctx) { ctx.report(42 as unknown as string); } }),
];`);
    const results = await runChecks(checks, input());
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(results.every((r) => r.enforcement === "mandatory" && r.error !== undefined)).toBe(true);
    expect(byName.get("loops")?.error).toBe("did not finish within 0.4 s (the time limit of svc.ts and its checks: --eval-timeout)");
    expect(byName.get("never settles")?.error).toContain("did not finish within 0.4 s");
    expect(byName.get("exits")?.error).toBe("called process.exit(3); a check must not end the process: report a violation or throw instead");
    expect(byName.get("exits later")?.error).toBe("called process.exit(0); a check must not end the process: report a violation or throw instead");
    expect(byName.get("throws a string")?.error).toBe('threw "no"');
    expect(byName.get("throws null")?.error).toBe("threw a non-Error value (null)");
    // Reading the thrown Proxy throws: that error is what the check threw, in the end.
    expect(byName.get("throws a trap")?.error).toMatch(/^threw Error: trap at .*checks-.*\.ts:\d+:\d+$/);
    expect(byName.get("rejects")?.error).toMatch(/^threw RangeError: bad change at .*checks-.*\.ts:\d+:\d+$/);
    expect(byName.get("pollutes")?.error).toBe('added "allowDataLoss" to Object.prototype; checks must not change shared prototypes');
    expect(Object.hasOwn(Object.prototype, "allowDataLoss")).toBe(false);
    expect(byName.get("misreports")?.error).toBe("report() takes a string message, not number");
  });

  it("calls validateChange once per change in plan order, sync and async calls mixed, each report at its change; a loop in one call is a failure naming the check", async () => {
    const many: Change[] = Array.from({ length: 30 }, (_, i) => ({ ...bucket, id: `create:bucket.b${i}`, address: `bucket.b${i}` }));
    const seen: string[] = [];
    const given = { ...input(), plan: { ...input().plan, changes: many } };
    const [mixed] = await runChecks([
      defineCheck({
        name: "mixed",
        enforcement: "advisory",
        validateChange: (c, ctx) => {
          seen.push(c.address);
          if (c.address.endsWith("7")) ctx.report("sevens");
          return Number(c.address.slice(8)) % 4 === 0 ? Promise.resolve().then(() => ctx.report("async")) : undefined;
        },
      }),
    ], given);
    expect(seen).toEqual(many.map((c) => c.address));
    expect(mixed?.violations).toEqual(many.flatMap((c, i) => [...(c.address.endsWith("7") ? [{ address: c.address, message: "sevens" }] : []), ...(i % 4 === 0 ? [{ address: c.address, message: "async" }] : [])]));

    const [loops] = await runChecks(await fromFile(`export default defineCheck({ name: "loops on one", enforcement: "advisory", validateChange(c) { if (c.address === "compute") for (;;) {} } });`), input());
    expect(loops).toMatchObject({ name: "loops on one", enforcement: "mandatory", error: "did not finish within 0.4 s (the time limit of svc.ts and its checks: --eval-timeout)" });
  });

  it("keeps messages and counts bounded, keeps control characters as data, and ignores a report after the check ended", async () => {
    let late: ((m: string) => void) | undefined;
    const results = await runChecks([
      defineCheck({ name: "huge", enforcement: "advisory", validatePlan: (_p, ctx) => { ctx.report("x".repeat(5_000)); } }),
      defineCheck({ name: "many", enforcement: "advisory", validatePlan: (_p, ctx) => { for (let i = 0; i < 1_000; i++) ctx.report(`v${i}`); } }),
      defineCheck({ name: "control", enforcement: "advisory", validatePlan: (_p, ctx) => { ctx.report("line\nforged\u001b[2J\u202e"); late = ctx.report; } }),
    ], input());
    expect(results[0]?.violations[0]?.message).toBe(`${"x".repeat(2_000)}… (3000 more characters)`);
    expect(results[1]?.violations).toHaveLength(101);
    expect(results[1]?.violations[100]?.message).toBe("… and 900 more violation(s) (a check keeps at most 100)");
    expect(results[2]?.violations).toEqual([{ message: "line\nforged\u001b[2J\u202e" }]);
    late?.("too late");
    expect(results[2]?.violations).toHaveLength(1);
  });
});

describe("defineCheck and loadChecksFromFile", () => {
  it("refuses an invalid definition, listing every issue with its path under defineCheck", () => {
    let thrown: unknown;
    try {
      defineCheck({ name: " x\u202e", enforcement: "always", validatePlan: 1, extra: true } as never);
    } catch (err) {
      thrown = err;
    }
    expect(isPlatformError(thrown, "PLATFORM_CONFIG_INVALID")).toBe(true);
    expect((thrown as { details: { issues: unknown[] } }).details.issues).toEqual([
      { path: "defineCheck.extra", message: '"extra" is not a key of a check (name, description, enforcement, validateChange, validatePlan)' },
      { path: "defineCheck.name", message: "must be a non-empty name without surrounding spaces" },
      { path: "defineCheck.enforcement", message: 'must be "advisory" or "mandatory" (got "always")' },
      { path: "defineCheck.validatePlan", message: "must be a function (got a number)" },
    ]);
  });

  it("finds svc.checks.ts beside the policy, refuses duplicate names, a FIFO-like path and a file without checks", async () => {
    const project = createTempTree({ "svc.ts": "export default {};\n" });
    try {
      expect(await loadChecksFromFile({ policyPath: project.path("svc.ts") })).toEqual({ checks: [] });
      project.write("svc.checks.ts", 'import { defineCheck } from "svc-config/v1";\nconst c = defineCheck({ name: "a", enforcement: "advisory", validatePlan() {} });\nexport default [c, c];\n');
      await expect(loadChecksFromFile({ policyPath: project.path("svc.ts") })).rejects.toThrow(/Invalid checks in .*svc\.checks\.ts:\n {2}- \[1\]\.name: "a" is also the name of check \[0\]; names must be unique/);
      project.write("svc.checks.ts", "export const nothing = 1;\n");
      await expect(loadChecksFromFile({ policyPath: project.path("svc.ts") })).rejects.toThrow(/exports no checks/);
      await expect(loadChecksFromFile({ path: project.path(".") })).rejects.toThrow(/is a directory/);
      await expect(loadChecksFromFile({ path: "/dev/null" })).rejects.toThrow(/is not a regular file/);
    } finally {
      project.remove();
    }
  });
});
