import { join } from "node:path";
import { instance } from "@viz-js/viz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPlanDot, renderPlanMermaid } from "../../../src/cli/views/graph.js";
import type { Change, PushResult } from "../../../src/model/plan.js";
import { launchBrowser, SKIP_BROWSER } from "../instant/browser.js";
import { ROOT, useEmulatorProject } from "./harness.js";

const { svc } = useEmulatorProject();

/** A plan with every action and a chain, as the engine would order it. */
function syntheticPlan(): PushResult {
  const change = (id: string, dependsOn: string[] = []): Change => {
    const [action, address] = id.split(":") as [Change["action"], string];
    return { id, address, kind: address.split(".")[0] as Change["kind"], action, class: "additive", fields: ["*"], before: null, after: null, reason: "", dependsOn };
  };
  const changes = [
    change("update:branch"),
    change("update:compute", ["update:branch"]),
    change("delete:trigger.old"),
    change("delete:function.legacy", ["delete:trigger.old"]),
    change("create:function.api"),
    change("replace:domain.shop.example.com", ["create:function.api"]),
  ];
  return { projectId: "p", branchId: "br-1", branchName: 'main "quoted" <b>', dryRun: true, applied: [], conflicts: [], changes, failed: [], skipped: [], unmanaged: [], warnings: [], summary: { create: 2, update: 2, delete: 2, conflicts: 0 }, stateFingerprint: "", bundles: {} };
}

/** Node titles and edges of a Graphviz SVG. */
function svgGraph(svg: string): { nodes: string[]; edges: string[] } {
  const titles = [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => (m[1] ?? "").replace(/&#45;/g, "-").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&"));
  return { nodes: titles.filter((t) => !t.includes("->") && !t.startsWith("svc plan")), edges: titles.filter((t) => t.includes("->")) };
}

describe("svc config plan --graph dot", () => {
  it("prints DOT that real Graphviz lays out: one node per change, one edge per dependency", async () => {
    const run = await svc(["config", "plan", "--graph", "dot"]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith("digraph ")).toBe(true);
    const svg = (await instance()).renderString(run.stdout, { format: "svg" });
    expect(svgGraph(svg)).toEqual({
      nodes: ["update:compute", "create:bucket.avatars", "create:function.hello", "create:trigger.hourly"],
      edges: ["create:function.hello->create:trigger.hourly"],
    });
    expect(svg).toContain(">+ function.hello</text>");
    expect(svg).toContain('fill="#d4f7d4"');
    expect(svg).toContain('fill="#fff3c4"');
  });

  it("renders every action and quotes any branch name", async () => {
    const svg = (await instance()).renderString(renderPlanDot(syntheticPlan()), { format: "svg" });
    const graph = svgGraph(svg);
    expect(graph.nodes).toHaveLength(6);
    expect(graph.edges).toEqual(["update:branch->update:compute", "delete:trigger.old->delete:function.legacy", "create:function.api->replace:domain.shop.example.com"]);
    for (const fill of ["#d4f7d4", "#fff3c4", "#ffd6d6", "#f3d6ff"]) expect(svg).toContain(`fill="${fill}"`);
  });

  it("refuses a format it does not know, and --graph with --json", async () => {
    const bad = await svc(["config", "plan", "--graph", "png"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--graph takes dot or mermaid, not "png"');
    expect((await svc(["config", "plan", "--graph", "dot", "--json"])).code).toBe(1);
  });
});

describe.skipIf(SKIP_BROWSER)("Mermaid, parsed and rendered by mermaid 11 in Chromium", () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let render: (text: string) => Promise<{ ok: true; svg: string } | { ok: false; error: string }>;
  beforeAll(async () => {
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ path: join(ROOT, "node_modules", "mermaid", "dist", "mermaid.min.js") });
    await page.evaluate(() => (globalThis as unknown as { mermaid: { initialize(o: object): void } }).mermaid.initialize({ startOnLoad: false }));
    let n = 0;
    render = (text) =>
      page.evaluate(async ([source, id]) => {
        const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown>; render(id: string, t: string): Promise<{ svg: string }> } }).mermaid;
        try {
          await m.parse(source);
          return { ok: true as const, svg: (await m.render(id, source)).svg };
        } catch (err) {
          return { ok: false as const, error: String(err) };
        }
      }, [text, `g${(n += 1)}`] as const);
  }, 60_000);
  afterAll(async () => browser?.close());

  it("--graph mermaid renders with a node per change and an edge per dependency", async () => {
    const run = await svc(["config", "plan", "--graph", "mermaid"]);
    expect(run.code).toBe(0);
    const out = await render(run.stdout);
    if (!out.ok) throw new Error(out.error);
    for (const label of ["~ compute", "+ bucket.avatars", "+ function.hello", "+ trigger.hourly"]) expect(out.svg).toContain(label);
    expect(out.svg.match(/class="[^"]*flowchart-link/g)).toHaveLength(1);
  });

  it("the Markdown view's collapsible diagram is the same graph, and renders", async () => {
    const run = await svc(["config", "plan", "--markdown"]);
    const block = /<details><summary>Dependency graph<\/summary>\n\n```mermaid\n([\s\S]*?)```\n\n<\/details>/.exec(run.stdout);
    expect(block?.[1]).toBe((await svc(["config", "plan", "--graph", "mermaid"])).stdout);
    const out = await render(block?.[1] ?? "");
    expect(out.ok).toBe(true);
  });

  it("renders every action, with addresses holding Mermaid syntax characters escaped", async () => {
    const plan = syntheticPlan();
    const odd = plan.changes[4];
    if (odd !== undefined) odd.address = 'function.a"b]|(c)';
    const out = await render(renderPlanMermaid(plan));
    if (!out.ok) throw new Error(out.error);
    expect(out.svg).toContain("-/+ domain.shop.example.com");
    expect(out.svg.match(/class="[^"]*flowchart-link/g)).toHaveLength(3);
    expect((await render("flowchart LR\n  c0[\"x\"] --> \n")).ok).toBe(false);
  });
});

it("a plan without dependent changes has no diagram in the Markdown view", async () => {
  const run = await svc(["config", "plan", "--markdown", "--target", "bucket.avatars"]);
  expect(run.stdout).toContain("+ bucket.avatars");
  expect(run.stdout).not.toContain("```mermaid");
});
