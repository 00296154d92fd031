/**
 * Text from outside is data: every view prints hostile names escaped, on exactly the lines a
 * benign name would take, and the streams escape what a view let through.
 */
import { describe, expect, it } from "vitest";
import { CliError, CliErrorCode } from "../../../src/errors/cli-errors.js";
import type { PushResult } from "../../../src/model/plan.js";
import { renderServicesText, type BranchServices } from "../../../src/cli/branch-services.js";
import type { BranchPostgres } from "../../../src/cli/branch-postgres.js";
import { renderStatusText } from "../../../src/cli/commands/status-command.js";
import { Progress } from "../../../src/cli/terminal/progress.js";
import { Scrubber } from "../../../src/cli/terminal/scrub.js";
import { describeError, renderErrorText } from "../../../src/cli/views/error-view.js";
import { renderFleetMarkdown, renderFleetText, type FleetRow } from "../../../src/cli/views/fleet-summary.js";
import { renderPlanGraph } from "../../../src/cli/views/graph.js";
import { stringifyDocument } from "../../../src/cli/views/json-plan.js";
import { renderPlanMarkdown } from "../../../src/cli/views/markdown-plan.js";
import { escapeForStream, printedLines, shown } from "../../../src/cli/views/outside-text.js";
import { renderTargetBlock, renderTargetLine, type EchoInfo } from "../../../src/cli/views/target-echo.js";
import { renderPlanText } from "../../../src/cli/views/text-plan.js";
import { renderApplyComplete, renderOutcomeLists } from "../../../src/cli/views/text-result.js";
import { unifiedDiff } from "../../../src/cli/views/unified-diff.js";
import { COLOR_STYLE, type ViewTarget } from "../../../src/cli/views/view-model.js";
import type { PulledBranchConfig } from "../../../src/v1.js";
import { TARGET, loadResult } from "./fixtures.js";

/** What an attacker appends to a live name: erase the line above, rewrite it, forge a line, reorder, hide. */
const ATTACK = "\u001b[1A\u001b[2K\r  ~ nothing to see\n  + forged line\u202egnp.exe\u200b\u0085\u001b[8m";

/** Keys whose values are vocabulary, not outside text (or must match other values). */
const VOCABULARY = new Set(["action", "class", "kind", "code", "fields", "status", "runtime"]);

function poison(value: unknown, key = ""): unknown {
  if (typeof value === "string") return VOCABULARY.has(key) || value === "[redacted]" || value === "*" ? value : `${value}${ATTACK}`;
  if (Array.isArray(value)) return value.map((v) => poison(v, key));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  return value;
}

/** The same data with benign names of the same shape, to count the lines a view should print. */
function benign(value: unknown, key = ""): unknown {
  if (typeof value === "string") return VOCABULARY.has(key) || value === "[redacted]" || value === "*" ? value : `${value}-x`;
  if (Array.isArray(value)) return value.map((v) => benign(v, key));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, benign(v, k)]));
  return value;
}

function appliedResult(plan: PushResult): PushResult {
  const applied = plan.changes.map((c) => ({ id: c.id, address: c.address, kind: c.kind, action: c.action, class: c.class, fields: c.fields, identifier: c.address, field: c.fields[0] ?? "*", status: "applied" as const, details: { invocationUrl: `https://${c.address}.fn.example.test` } }));
  const [first, second] = applied;
  return {
    ...plan,
    dryRun: false,
    applied,
    failed: first === undefined ? [] : [{ change: first, error: { code: "PLATFORM_API_ERROR", message: `could not update ${first.address}` } }],
    skipped: second === undefined ? [] : [{ change: second, reason: `depends on ${second.address}`, blockedBy: first?.id }],
    customDomains: [{ domain: `shop.example.com${ATTACK}`, slug: "hello", cnameTarget: `edge${ATTACK}` }],
  } as PushResult;
}

const STATUS_SOURCE = {
  project: { id: "p-1", name: "app", region: "aws-us-east-2", pgVersion: 17, orgId: null },
  branch: { name: "preview/a", id: "br-1", parent: "main", isDefault: false, protected: false },
  config: { auth: true },
  preview: { buckets: [{ name: "media", access: "private" }], functions: [], credentials: [] },
};
const SERVICES: BranchServices = {
  functions: [{ slug: "api", name: "Api", url: "https://api.fn.example.test", inherited: false }],
  triggers: [{ name: "nightly", type: "schedule", function: "api", on: "0 0 * * *", enabled: true, inherited: false }],
  customDomains: [{ domain: "shop.example.com", function: "api", cnameTarget: "edge.example.test", status: "active" }],
};
const POSTGRES: BranchPostgres = {
  computes: [{ id: "ep-1", type: "read_write", state: "active", minCu: 0.25, maxCu: 2, suspendTimeoutSeconds: 0 }],
  roles: [{ name: "app_owner", login: true, protected: false }],
  databases: [{ name: "app", owner: "app_owner" }],
};
const ECHO: EchoInfo = { project: { id: "p-1", name: "app", label: "SVC_PROJECT_ID" }, branch: { name: "preview/a", id: "br-1", label: "--branch" }, api: { host: "http://127.0.0.1:1/api/v2", label: "env", insecure: false }, config: { path: "svc.ts", label: "search" }, keyLabel: "SVC_API_KEY" };
const FLEET: FleetRow[] = [{ branchId: "br-1", branchName: "preview/a", changes: 2, conflicts: 0, result: "changes", exitCode: 2, error: { code: "PLATFORM_API_ERROR", message: "failed on preview/a", requestId: null, hint: null, causes: [] } }];

function progressFrame(subject: string, mode: "live" | "plain"): string {
  const written: string[] = [];
  const progress = new Progress({ stream: { write: (s: string) => written.push(s), columns: 400, rows: 40 }, mode, unicode: true, now: () => 0 });
  progress.onEvent({ type: "change", id: `delete:${subject}`, phase: "start" });
  progress.onEvent({ type: "change", id: `delete:${subject}`, phase: "failed" });
  progress.stop();
  return written.join("");
}

/** Every view, rendered from data whose outside strings went through `make`. */
const VIEWS: [string, (make: (value: unknown) => unknown) => string][] = [
  ["the text plan", (make) => renderPlanText(make(loadResult("plan-mixed")) as PushResult, COLOR_STYLE, { branchProtected: true })],
  ["the Markdown plan", (make) => renderPlanMarkdown(make(loadResult("plan-mixed")) as PushResult, make(TARGET) as ViewTarget)],
  ["the DOT graph", (make) => renderPlanGraph(make(loadResult("plan-mixed")) as PushResult, "dot")],
  ["the Mermaid graph", (make) => renderPlanGraph(make(loadResult("plan-mixed")) as PushResult, "mermaid")],
  ["the apply result", (make) => renderApplyComplete(appliedResult(make(loadResult("plan-mixed")) as PushResult), 1200)],
  ["the applied, failed and skipped lists", (make) => renderOutcomeLists(appliedResult(make(loadResult("plan-mixed")) as PushResult), COLOR_STYLE)],
  ["the status", (make) => renderStatusText(make(STATUS_SOURCE) as PulledBranchConfig, make(SERVICES) as BranchServices, make(POSTGRES) as BranchPostgres)],
  ["the services", (make) => printedLines(renderServicesText(make(SERVICES) as BranchServices))],
  ["the target echo block", (make) => renderTargetBlock(make(ECHO) as EchoInfo)],
  ["the target echo line", (make) => renderTargetLine(make(ECHO) as EchoInfo)],
  ["the fleet table", (make) => renderFleetText(make(FLEET) as FleetRow[])],
  ["the fleet Markdown", (make) => renderFleetMarkdown(make(FLEET) as FleetRow[], "p-1", "plan")],
  ["the pull diff", (make) => unifiedDiff("a\nb\n", "a\nc\u001b[1A\u001b[2K\n", String(make("svc.ts")), "svc.ts (pulled)")],
  ["an error with a hint", (make) => renderErrorText(describeError(new CliError(CliErrorCode.USAGE, `Branch ${shown(String(make("feat")))} has no database`, { hint: `Pick one of ${String(make("app"))}` })), true)],
  ["progress lines", (make) => progressFrame(`trigger.${String(make("nightly"))}`, "plain")],
  ["the live progress list", (make) => progressFrame(`trigger.${String(make("nightly"))}`, "live")],
];

/** Unsafe characters other than the line breaks between lines and the CLI's own colours and cursor moves. */
function rawUnsafe(text: string): string[] {
  const own = text.replace(/\u001b\[(?:1|2|22|31|32|33|35|39)m/g, "").replace(/\u001b\[\d+F\u001b\[J/g, "");
  return [...own].filter((ch) => ch !== "\n" && /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(ch));
}

describe("every view prints outside text escaped, on the lines a benign name takes", () => {
  it.each(VIEWS)("%s", (_name, render) => {
    const hostile = render(poison);
    const plain = render(benign);

    expect(rawUnsafe(hostile)).toEqual([]);
    expect(hostile.split("\n").length).toBe(plain.split("\n").length);
    expect(hostile).not.toContain("\n  + forged line");
    expect(hostile).toContain("\\u001b");
  });

  it("the JSON document keeps the exact names (JSON's own escapes), and the stream rule keeps it exact", () => {
    const result = poison(loadResult("plan-mixed")) as PushResult;
    const text = escapeForStream(stringifyDocument({ address: result.changes[0]?.address }));

    expect(rawUnsafe(text)).toEqual([]);
    expect((JSON.parse(text) as { address: string }).address).toBe(result.changes[0]?.address);
  });
});

describe("the escape rules", () => {
  it("shown escapes line breaks, carriage returns, tabs, ESC, DEL, C1, bidi and zero-width characters", () => {
    expect(shown("a\nb\rc\td\u001be\u007ff\u0085g\u202eh\u200bi")).toBe("a\\u000ab\\u000dc\\u0009d\\u001be\\u007ff\\u0085g\\u202eh\\u200bi");
    expect(shown("plain ünïcode 😀")).toBe("plain ünïcode 😀");
  });

  it("printedLines keeps the CLI's own colours and prints each entry as one line", () => {
    expect(printedLines([`${COLOR_STYLE.green("+")} bucket.a\nb`, "c\u001b[2K"])).toBe("\u001b[32m+\u001b[39m bucket.a\\u000ab\nc\\u001b[2K\n");
  });

  it("the stream rule keeps line breaks and the CLI's colours, and escapes cursor moves, erases, hyperlinks and conceal", () => {
    expect(escapeForStream("\u001b[1mPlan\u001b[22m\nx\u001b[1A\u001b[2K\r\u001b]8;;http://x\u0007y\u001b[8mz\n")).toBe(
      "\u001b[1mPlan\u001b[22m\nx\\u001b[1A\\u001b[2K\\u000d\\u001b]8;;http://x\\u0007y\\u001b[8mz\n",
    );
  });

  it("a wrapped stream writes the progress list's own cursor moves raw, and escapes anything else given as one", () => {
    const written: string[] = [];
    const stream = new Scrubber().wrap({ write: (t: string) => written.push(t) });
    stream.control?.("\u001b[3F\u001b[J");
    stream.control?.("\u001b[3Fforged\n");
    stream.write("name\u001b[3F\n");

    expect(written).toEqual(["\u001b[3F\u001b[J", "\\u001b[3Fforged\n", "name\\u001b[3F\n"]);
  });
});
