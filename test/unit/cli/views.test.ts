import { describe, expect, it } from "vitest";
import { buildPlanDocument, stringifyDocument } from "../../../src/cli/views/json-plan.js";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { renderPlanMarkdown } from "../../../src/cli/views/markdown-plan.js";
import { escapeMarkdown } from "../../../src/cli/views/markdown-text.js";
import { renderPlanText } from "../../../src/cli/views/text-plan.js";
import { renderApplyComplete, renderOutcomeLists } from "../../../src/cli/views/text-result.js";
import { COLOR_STYLE } from "../../../src/cli/views/view-model.js";
import type { Change, PushResult } from "../../../src/model/plan.js";
import { PLANTED_SECRET, TARGET, loadResult } from "./fixtures.js";

describe("text plan view", () => {
  const text = renderPlanText(loadResult("plan-mixed"));

  it.each([
    ["an override change with its mark", /^ {2}~ compute {2,}\[override: needs --update-existing\]$/m],
    ["a before -> after field line", /^ {6}suspendTimeout: 300 -> 3600$/m],
    ["a destructive delete naming both flags", /^ {2}- bucket\.tmp {2,}\[destructive: needs --update-existing --allow-data-loss\]$/m],
    ["a create with its fields from absent", /^ {6}access: \(none\) -> "public_read"$/m],
    ["an env value change naming the candidates, never a value", /^ {6}env: the value of GREETING may have changed \(values redacted; the platform keeps no values to compare\)$/m],
    ["an added env name as sensitive", /^ {6}env\.NEW_FLAG: \(none\) -> \(sensitive\)$/m],
    ["a replace symbol", /^ {2}-\/\+ domain\.shop\.example\.com {2,}\[override/m],
    ["unmanaged entries sorted by address", /Unmanaged \(on the branch[^\n]*\n {2}function\.hello\.env\.OLD_FLAG\n {2}trigger\.nightly \(inherited\)/],
    ["a conflict with code, sides, reason and resolution", /! trigger\.cleanup {2}TRIGGER_TYPE_CHANGED\n {6}type: "schedule" -> "storage_object_created"\n {6}reason: {2}A trigger[^\n]*\n {6}resolve: Rename the trigger/],
    ["the exact summary line last", /\nPlan: 2 to create, 2 to update, 3 to delete; 1 conflicts\n$/],
    ["each change's reason under its fields", /^ {2}~ compute {2,}\[override[^\n]*\n {6}suspendTimeout: 300 -> 3600\n {6}reason: \S/m],
  ])("shows %s", (_name, pattern) => {
    expect(text).toMatch(pattern);
  });

  it("shows a reason line for every change", () => {
    const result = loadResult("plan-mixed");
    const reasons = text.split("\n").filter((line) => /^ {6}reason: \S/.test(line));
    expect(reasons).toEqual(result.changes.map((c) => `      reason: ${c.reason}`));
  });

  it("names each env variable whose value is known to have changed, in text, Markdown and JSON, never its value", () => {
    const base = loadResult("plan-mixed");
    const change: Change = {
      id: "update:function.api", address: "function.api", kind: "function", action: "update", class: "additive", fields: ["env.API_TOKEN"],
      before: { env: { API_TOKEN: "[redacted]", LOG_LEVEL: "[redacted]" } }, after: { env: { API_TOKEN: "[redacted]", LOG_LEVEL: "[redacted]" } },
      reason: "the value of API_TOKEN changed; the archive is kept", dependsOn: [],
    };
    const result: PushResult = { ...base, changes: [change], conflicts: [], unmanaged: [] };
    expect(renderPlanText(result)).toContain("  ~ function.api\n      env.API_TOKEN: value changed (sensitive)\n      reason: the value of API_TOKEN changed; the archive is kept\n");
    expect(renderPlanMarkdown(result, TARGET)).toContain("~ env.API_TOKEN: value changed (sensitive)\n");
    const doc = buildPlanDocument({ command: "plan", cliVersion: "0.1.0", target: TARGET, result });
    expect(doc.changes[0]?.fields).toEqual([{ name: "env.API_TOKEN", before: "(sensitive)", after: "(sensitive)", sensitive: true }]);
  });

  it("never prints a secret value the engine left in a field", () => {
    expect(text).not.toContain(PLANTED_SECRET);
  });

  it("aligns every mark at the same column", () => {
    const columns = text.split("\n").filter((l) => l.includes("[override") || l.includes("[destructive")).map((l) => l.indexOf("["));
    expect(new Set(columns).size).toBe(1);
  });

  it("says there is nothing to do before the summary when the plan is empty", () => {
    const empty: PushResult = { ...loadResult("plan-mixed"), changes: [], conflicts: [], unmanaged: [], summary: { create: 0, update: 0, delete: 0, conflicts: 0 } };
    expect(renderPlanText(empty)).toBe("No changes. Branch main matches svc.ts.\n\nPlan: 0 to create, 0 to update, 0 to delete; 0 conflicts\n");
  });

  it("names the policy file the plan came from in every resolution, never a svc.ts it did not read", () => {
    const result = loadResult("plan-mixed");
    const target = { ...TARGET, configPath: "infra/app.ts" };
    const views = [
      renderPlanText(result, undefined, { configPath: "infra/app.ts" }),
      renderPlanMarkdown(result, target),
      JSON.stringify(buildPlanDocument({ command: "plan", cliVersion: "0.0.0", target, result }).conflicts),
    ];
    for (const view of views) {
      expect(view).toContain("Rename the trigger in infra/app.ts");
      expect(view).not.toContain("trigger in svc.ts");
    }
  });

  it("uses colour only when asked and keeps the same words", () => {
    const colored = renderPlanText(loadResult("plan-mixed"), COLOR_STYLE);
    expect(colored).toContain("\u001b[32m+\u001b[39m bucket.avatars");
    expect(colored.replace(/\u001b\[\d+m/g, "")).toBe(text);
    expect(text).not.toContain("\u001b[");
  });

  it("cuts long compact JSON values at 120 characters", () => {
    const long: Change = {
      id: "update:dataApi", address: "dataApi", kind: "dataApi", action: "update", class: "override", fields: ["settings"],
      before: { settings: { dbSchemas: Array.from({ length: 40 }, (_, i) => `schema_${i}`) } }, after: { settings: {} }, reason: "r", dependsOn: [],
    };
    const out = renderPlanText({ ...loadResult("plan-mixed"), changes: [long], conflicts: [] });
    const line = out.split("\n").find((l) => l.includes("settings:")) ?? "";
    expect(line).toContain("…");
    expect(line.split(" -> ")[0]?.trim().length).toBeLessThanOrEqual("settings: ".length + 120);
  });
});

describe("Markdown plan view", () => {
  const md = renderPlanMarkdown(loadResult("plan-mixed"), TARGET);

  it("starts with the hidden marker CI finds the comment by", () => {
    expect(md.startsWith("<!-- svc-plan v1 project=calm-river-123456 branch=br-quiet-sun-123456 -->\n### svc plan: main\n")).toBe(true);
  });

  it.each([
    ["the bold summary", "**Plan: 2 to create, 2 to update, 3 to delete; 1 conflicts**"],
    ["a warning callout", "> [!WARNING]"],
    ["the data-loss flag in the callout", "`--allow-data-loss`"],
    ["the protected-branch flag in the callout", "`--allow-protected`"],
    ["a conflict row first in the table", "|---|---|---|---|\n| ! | trigger.cleanup |"],
    ["a collapsible section per change", "<details><summary><code>~ function.hello</code> (update)</summary>"],
    ["a diff fence", "```diff\n"],
    ["an added env name in the change's diff", "~ env.NEW_FLAG: (none) -> (sensitive)\n"],
    ["the env names whose value may have changed", "~ env: the value of GREETING may have changed (values redacted; the platform keeps no values to compare)\n"],
    ["the unmanaged list", "- trigger.nightly (inherited)"],
  ])("contains %s", (_name, needle) => {
    expect(md).toContain(needle);
  });

  it("never prints a secret value", () => {
    expect(md).not.toContain(PLANTED_SECRET);
  });

  it("is byte-identical for the same plan", () => {
    expect(renderPlanMarkdown(loadResult("plan-mixed"), TARGET)).toBe(md);
  });

  it("escapes user-controlled text for Markdown and HTML", () => {
    expect(escapeMarkdown("a<b>|`c`&d")).toBe("a&lt;b&gt;&#124;&#96;c&#96;&amp;d");
  });

  it("stays within 60,000 characters and says what it left out", () => {
    const base = loadResult("plan-mixed");
    const many: Change[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `create:bucket.b${i}`, address: `bucket.b${i}`, kind: "bucket", action: "create", class: "additive", fields: ["*"],
      before: null, after: { access: "private" }, reason: "declared in svc.ts, absent on the branch", dependsOn: [],
    }));
    const big = renderPlanMarkdown({ ...base, changes: many, summary: { create: 3000, update: 0, delete: 0, conflicts: 1 } }, TARGET);
    expect(big.length).toBeLessThanOrEqual(60_000);
    expect(big).toContain("| ! | trigger.cleanup |");
    expect(big).toMatch(/> \*\*Truncated\.\*\* Showing \d+ of 3001 table rows, 0 of 2 unmanaged entries and \d+ of 3001 detail sections\. Run svc config plan locally/);
  });
});

describe("JSON plan view", () => {
  const doc = buildPlanDocument({ command: "plan", cliVersion: "0.1.0", target: TARGET, result: loadResult("plan-mixed") });
  const text = stringifyDocument(doc);

  it("validates against the published schema", () => {
    expect(() => planDocumentSchema.parse(JSON.parse(text))).not.toThrow();
  });

  it("lists keys in the documented order", () => {
    expect(Object.keys(doc)).toEqual(["formatVersion", "command", "cliVersion", "target", "summary", "applyable", "requires", "changes", "unmanaged", "conflicts", "warnings"]);
    expect(Object.keys(doc.changes[0] ?? {})).toEqual(["id", "address", "kind", "action", "class", "needs", "reason", "fields", "dependsOn"]);
  });

  it("marks sensitive fields and hides their values", () => {
    const fn = doc.changes.find((c) => c.address === "function.hello");
    expect(fn?.fields).toContainEqual({ name: "env.NEW_FLAG", before: null, after: "(sensitive)", sensitive: true });
    expect(fn?.fields).toContainEqual({ name: "env", before: "(sensitive)", after: "(sensitive)", sensitive: true, names: ["GREETING"] });
    expect(text).not.toContain(PLANTED_SECRET);
  });

  it("says the plan is not applyable and what applying needs", () => {
    expect(doc.applyable).toBe(false);
    expect(doc.requires).toEqual({ updateExisting: true, allowProtected: true, allowDataLoss: true, explicitBranch: false });
    expect(doc.summary).toEqual({ create: 2, update: 2, delete: 3, replace: 1, conflicts: 1, unmanaged: 2 });
  });

  it("uses 2-space indentation and a trailing newline", () => {
    expect(text.startsWith('{\n  "formatVersion": 1,')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
  });
});

describe("apply result views", () => {
  const base = loadResult("plan-mixed");
  const applied: PushResult = {
    ...base,
    dryRun: false,
    conflicts: [],
    applied: [
      { id: "create:bucket.avatars", address: "bucket.avatars", kind: "bucket", action: "create", class: "additive", fields: ["*"], identifier: "avatars", field: "*", status: "applied" },
      { id: "update:function.hello", address: "function.hello", kind: "function", action: "update", class: "additive", fields: ["env"], identifier: "hello", field: "env", status: "applied", details: { invocationUrl: "https://hello-abc123.fn.example.test" } },
    ],
    failed: [
      { change: { id: "replace:domain.shop.example.com", address: "domain.shop.example.com", kind: "domain", action: "replace", class: "override", fields: ["function"], identifier: "shop.example.com", field: "function", status: "planned" }, error: { code: "PLATFORM_CONFLICT", message: "POST failed with HTTP 409" } },
    ],
    skipped: [
      { change: { id: "delete:function.legacy", address: "function.legacy", kind: "function", action: "delete", class: "override", fields: ["*"], identifier: "legacy", field: "*", status: "planned" }, reason: "dependency failed", blockedBy: "replace:domain.shop.example.com" },
    ],
  };

  it("prints the completion line with counts and the outputs", () => {
    expect(renderApplyComplete(applied, 48_200)).toBe(
      "Apply complete: 1 created, 1 updated, 0 deleted in 48.2s\nOutputs\n  function.hello    https://hello-abc123.fn.example.test\n",
    );
  });

  it("prints each custom domain's CNAME target after the functions' URLs, and none for a domain without one", () => {
    const withDomains: PushResult = { ...applied, customDomains: [{ domain: "shop.example.com", slug: "hello", cnameTarget: "fn-front.example.test" }, { domain: "new.example.com", slug: "hello", cnameTarget: "" }] };
    expect(renderApplyComplete(withDomains, 1_000)).toBe(
      "Apply complete: 1 created, 1 updated, 0 deleted in 1.0s\nOutputs\n  function.hello             https://hello-abc123.fn.example.test\n  domain.shop.example.com    CNAME target fn-front.example.test\n",
    );
  });

  it("lists applied, failed and skipped changes in plan order", () => {
    const out = renderOutcomeLists(applied);
    expect(out).toContain("Applied (2)\n  ✔ bucket.avatars (create)\n  ✔ function.hello (update)\nFailed (1)\n  ✘ domain.shop.example.com (replace)\n      PLATFORM_CONFLICT: POST failed with HTTP 409\nSkipped (1)\n  · function.legacy (blocked by replace:domain.shop.example.com)\n");
    expect(out.endsWith("Run svc config plan to see what remains.\n")).toBe(true);
  });

  it("says nothing was applied when that is the case", () => {
    expect(renderOutcomeLists({ ...applied, applied: [] })).toContain("Applied (0)\n  nothing was applied\n");
  });

  it("gives each change its apply status in JSON", () => {
    const doc = buildPlanDocument({ command: "apply", cliVersion: "0.1.0", target: TARGET, result: applied, outcome: { status: "partial", durationMs: 12, error: null } });
    expect(planDocumentSchema.parse(doc).result?.outputs).toEqual([{ address: "function.hello", name: "invocationUrl", value: "https://hello-abc123.fn.example.test" }]);
    expect(doc.changes.map((c) => c.status)).toEqual(["skipped", "skipped", "applied", "applied", "failed", "skipped"]);
  });
});
