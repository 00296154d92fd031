import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { renderPlanMarkdown } from "../../../src/cli/views/markdown-plan.js";
import type { PushResult } from "../../../src/model/plan.js";
import { TARGET, loadResult } from "./fixtures.js";

/** Renders Markdown as GitHub does (GFM, raw HTML kept for `<details>`). */
function toHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

const mixed = loadResult("plan-mixed");
const [conflict] = mixed.conflicts;
const byClass = (cls: string): PushResult["changes"] => mixed.changes.filter((c) => c.class === cls);
const only = (changes: PushResult["changes"], conflicts: PushResult["conflicts"] = []): PushResult => ({ ...mixed, changes, conflicts });

/** One plan per warning kind, each raising exactly that kind of callout line. */
const cases: [string, PushResult, boolean, RegExp][] = [
  ["a protected branch", only(byClass("additive")), true, /is protected: apply needs <code>--allow-protected<\/code>/],
  ["an override change", only(byClass("override")), false, /override existing settings/],
  ["a blocking conflict", only([], conflict ? [conflict] : []), false, /blocking conflict/],
  ["a data-loss change", only(byClass("destructive")), false, /delete stored data/],
  ["every kind at once", mixed, true, /--allow-data-loss/],
];

describe("Markdown plan rendered by a GFM renderer", () => {
  it.each(cases)("keeps the callout for %s apart from the table", (_name, result, isProtected, calloutLine) => {
    const html = toHtml(renderPlanMarkdown(result, { ...TARGET, branchProtected: isProtected }));
    const quotes = [...html.matchAll(/<blockquote>([\s\S]*?)<\/blockquote>/g)].map((m) => m[1] ?? "");
    expect(quotes).toHaveLength(1);
    const callout = quotes[0] ?? "";
    expect(callout).toMatch(/^\s*<p>\[!WARNING\]/);
    expect(callout).toMatch(calloutLine);
    // Nothing but the callout's own paragraph: no table, list, heading or details swallowed.
    expect(callout.replace(/<\/?(p|code|br ?\/?)>/g, "")).not.toMatch(/<[a-z]/);
    expect(callout).not.toContain("Address");
    expect(html).toMatch(/<\/blockquote>\s*<table>\s*<thead>\s*<tr>\s*<th><\/th>\s*<th>Address<\/th>/);
    expect(html.match(/<tr>/g)?.length).toBe(1 + result.changes.length + result.conflicts.length);
  });

  it("renders the summary, table, unmanaged list and details as separate blocks", () => {
    const html = toHtml(renderPlanMarkdown(mixed, TARGET));
    expect(html).toMatch(/<p><strong>Plan: 2 to create, 2 to update, 3 to delete; 1 conflicts<\/strong><\/p>/);
    expect(html).toMatch(/<h4>Unmanaged<\/h4>\s*<p>On the branch[^<]*<\/p>\s*<ul>\s*<li>function\.hello\.env\.OLD_FLAG/);
    // One section per change and conflict, plus the dependency diagram (the plan has dependent changes).
    expect(html.match(/<details>/g)?.length).toBe(mixed.changes.length + mixed.conflicts.length + 1);
    expect(html.match(/<pre><code class="language-diff">/g)?.length).toBe(mixed.changes.length + mixed.conflicts.length);
    expect(html).toMatch(/<details><summary>Dependency graph<\/summary>\s*<pre><code class="language-mermaid">flowchart LR\n/);
  });

  it("raises no protected-branch callout when there is nothing to apply", () => {
    const html = toHtml(renderPlanMarkdown(only([]), { ...TARGET, branchProtected: true }));
    expect(html).not.toContain("<blockquote>");
  });

  it("renders the table right after the summary when there is no callout", () => {
    const html = toHtml(renderPlanMarkdown(only(byClass("additive")), { ...TARGET, branchProtected: false }));
    expect(html).not.toContain("<blockquote>");
    expect(html).toMatch(/<\/strong><\/p>\s*<table>/);
  });
});
