import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import type { ApiBranch, PlatformApi } from "../../../src/api/platform-api.js";
import { readSchemaDiff } from "../../../src/cli/commands/branch-diff.js";
import { renderSchemaDiffMarkdown, renderSchemaDiffText, quietSchemaDiff, type SchemaDiffView } from "../../../src/cli/views/schema-diff.js";
import { PLAIN_STYLE } from "../../../src/cli/views/view-model.js";
import { unifiedDiff } from "../../../src/emulator/engine/schema-diff.js";
import { rejection, testClient } from "../api/helpers.js";

/** Renders Markdown as GitHub does (GFM, raw HTML kept for `<details>`). */
function toHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

const LABELS = { base: "br-main/neondb", changed: "br-pr/neondb" };

/** A schema as a dump prints it: each table followed by its ownership and comment statements. */
function dump(tables: { name: string; owner: string; comment?: string; columns: string[] }[]): string {
  const parts = tables.flatMap((t) => [
    `CREATE TABLE public.${t.name} (\n${t.columns.map((c) => `    ${c}`).join(",\n")}\n);`,
    `ALTER TABLE public.${t.name} OWNER TO ${t.owner};`,
    ...(t.comment === undefined ? [] : [`COMMENT ON TABLE public.${t.name} IS '${t.comment}';`]),
  ]);
  return `${parts.join("\n\n")}\n`;
}

const withoutNoise = (text: string): string => text.replace(/^(?:ALTER TABLE .* OWNER TO .*|COMMENT ON .*);\n\n?/gm, "");

/** Each hunk's header counts match the lines under it. */
function hunkCountsMatch(lines: readonly string[]): boolean {
  let ok = true;
  let expected: { old: number; new: number } | undefined;
  const seen = { old: 0, new: 0 };
  const close = (): void => {
    if (expected !== undefined) ok &&= expected.old === seen.old && expected.new === seen.new;
  };
  for (const line of lines) {
    const hunk = /^@@ -\d+,(\d+) \+\d+,(\d+) @@/.exec(line);
    if (hunk !== null) {
      close();
      expected = { old: Number(hunk[1]), new: Number(hunk[2]) };
      seen.old = 0;
      seen.new = 0;
    } else if (expected !== undefined) {
      if (!line.startsWith("+")) seen.old += 1;
      if (!line.startsWith("-")) seen.new += 1;
    }
  }
  close();
  return ok;
}

describe("the schema diff without ownership and comments", () => {
  const base = dump([{ name: "accounts", owner: "neondb_owner", comment: "who pays", columns: ["id bigint NOT NULL"] }]);

  it("is the diff of the two schemas with their ownership and comment statements left out, its hunk counts matching its lines", () => {
    const changed = dump([
      { name: "accounts", owner: "app_owner", comment: "who pays us", columns: ["id bigint NOT NULL"] },
      { name: "notes", owner: "app_owner", comment: "added on the preview", columns: ["id bigint NOT NULL", "body text"] },
    ]);
    const quiet = quietSchemaDiff(unifiedDiff(base, changed, LABELS));
    // Where the diff aligned a blank line differently a separator may differ; every statement line is the same.
    const statements = (lines: string[]): string[] => lines.filter((line) => line.slice(1).trim() !== "" && !line.startsWith("@@"));
    expect(statements(quiet)).toEqual(statements(unifiedDiff(withoutNoise(base), withoutNoise(changed), LABELS).replace(/\n$/, "").split("\n")));
    expect(quiet.join("\n")).toContain("+CREATE TABLE public.notes (");
    expect(quiet.join("\n")).not.toMatch(/OWNER TO|COMMENT ON/);
    expect(hunkCountsMatch(quiet)).toBe(true);
  });

  it("drops the blank line that set a dropped statement apart: a new table reads as its CREATE and its constraints", () => {
    const changed = `${base}\nCREATE TABLE public.notes (\n    id bigint\n);\n\nALTER TABLE public.notes OWNER TO app_owner;\n\nCOMMENT ON TABLE public.notes IS 'n';\n\nALTER TABLE ONLY public.notes ADD CONSTRAINT notes_pkey PRIMARY KEY (id);\n`;
    const added = quietSchemaDiff(unifiedDiff(base, changed, LABELS)).filter((line) => line.startsWith("+") && !line.startsWith("+++"));
    expect(added).toEqual(["+", "+CREATE TABLE public.notes (", "+    id bigint", "+);", "+", "+ALTER TABLE ONLY public.notes ADD CONSTRAINT notes_pkey PRIMARY KEY (id);"]);
  });

  it("is empty when only owners and comments changed", () => {
    const changed = dump([{ name: "accounts", owner: "someone_else", comment: "reworded", columns: ["id bigint NOT NULL"] }]);
    expect(unifiedDiff(base, changed, LABELS)).not.toBe("");
    expect(quietSchemaDiff(unifiedDiff(base, changed, LABELS))).toEqual([]);
  });

  it("drops every line of a comment whose text spans several lines, a quote and a semicolon inside it included", () => {
    const changed = dump([
      { name: "accounts", owner: "neondb_owner", comment: "who pays", columns: ["id bigint NOT NULL"] },
      { name: "notes", owner: "app_owner", comment: "first line;\nit''s the second;\n\nCREATE TABLE not_a_table ();", columns: ["id bigint NOT NULL"] },
    ]);
    const quiet = quietSchemaDiff(unifiedDiff(base, changed, LABELS));
    expect(quiet.filter((line) => line.startsWith("+") && !line.startsWith("+++"))).toEqual(["+", "+CREATE TABLE public.notes (", "+    id bigint NOT NULL", "+);"]);
    expect(hunkCountsMatch(quiet)).toBe(true);
  });

  it("is empty when two comments differ only on a later line of their text", () => {
    const before = dump([{ name: "accounts", owner: "neondb_owner", comment: "who pays\nmonthly", columns: ["id bigint NOT NULL"] }]);
    const after = dump([{ name: "accounts", owner: "neondb_owner", comment: "who pays\nyearly\nor never", columns: ["id bigint NOT NULL"] }]);
    expect(unifiedDiff(before, after, LABELS)).toContain("+yearly");
    expect(quietSchemaDiff(unifiedDiff(before, after, LABELS))).toEqual([]);
  });

  it("is empty for the platform's empty diff", () => {
    expect(quietSchemaDiff("")).toEqual([]);
  });

  it("keeps every hunk's counts and moves its starts up by the noise dropped before it (a diff with context hunks)", () => {
    const diff = [
      "--- a",
      "+++ b",
      "@@ -1,3 +1,3 @@",
      " CREATE TABLE public.a (id int);",
      "-ALTER TABLE public.a OWNER TO x;",
      "+ALTER TABLE public.a OWNER TO y;",
      " ",
      "@@ -10,3 +10,4 @@",
      " CREATE TABLE public.b (",
      "+    note text,",
      "     id int",
      " );",
    ].join("\n");
    expect(quietSchemaDiff(diff)).toEqual(["--- a", "+++ b", "@@ -9,3 +9,4 @@", " CREATE TABLE public.b (", "+    note text,", "     id int", " );"]);
  });
});

describe("the schema diff as people read it", () => {
  const view = (lines: string[]): SchemaDiffView => ({ branch: { id: "br-pr", name: "preview/pr-1" }, base: { id: "br-main", name: "main", parent: true }, database: "neondb", lines });

  it("says so in one line when the schemas match", () => {
    expect(renderSchemaDiffText(view([]), PLAIN_STYLE)).toBe("No schema differences: preview/pr-1 (br-pr) against its parent main (br-main), database neondb.\n");
    expect(toHtml(renderSchemaDiffMarkdown(view([])))).toContain("No schema differences.");
  });

  it("a table named with a fence, </details> and control characters stays inside the code block of one collapsible section", () => {
    const hostile = 'CREATE TABLE public."x```\n</details>\u001b[2J\u202e" (';
    const lines = quietSchemaDiff(unifiedDiff("", `${hostile}\n    id int\n);\n`, LABELS));
    const markdown = renderSchemaDiffMarkdown(view(lines));
    const html = toHtml(markdown);
    expect(html.match(/<details>/g)).toHaveLength(1);
    expect(html.match(/<\/details>/g)).toHaveLength(1);
    const code = /<pre><code class="language-diff">([\s\S]*?)<\/code><\/pre>\s*<\/details>\s*$/.exec(html)?.[1] ?? "";
    expect(code).toContain("x```");
    expect(code).toContain("&lt;/details&gt;\\u001b[2J\\u202e");
    expect(markdown).not.toMatch(/[\u001b\u202e]/);
    expect(renderSchemaDiffText(view(lines), PLAIN_STYLE)).not.toMatch(/[\u001b\u202e]/);
  });

  it("counts a removed SQL comment line as removed, not as a header", () => {
    const lines = quietSchemaDiff(unifiedDiff("-- audit\nCREATE TABLE public.a (id int);\n", "CREATE TABLE public.a (id int);\n", LABELS));
    expect(lines).toContain("--- audit");
    expect(renderSchemaDiffMarkdown(view(lines))).toContain("Schema diff: 0 added, 1 removed");
  });

  it("leaves out the lines past its budget and says how many", () => {
    const lines = ["--- a", "+++ b", "@@ -0,0 +1,400 @@", ...Array.from({ length: 400 }, (_, i) => `+CREATE TABLE public.t${i} (id int);`)];
    const markdown = renderSchemaDiffMarkdown(view(lines), 4_000);
    expect(markdown.length).toBeLessThanOrEqual(4_000);
    const shownLines = markdown.split("\n").filter((l) => l.startsWith("+CREATE")).length;
    expect(markdown).toContain(`${403 - 3 - shownLines} more lines not shown: run \`svc branch diff\` for the whole diff.`);
    expect(toHtml(markdown).match(/<\/details>/g)).toHaveLength(1);
  });
});

describe("the schema diff through an adapter", () => {
  it("an adapter without compareSchema is refused by name before any request, saying what to add", async () => {
    const { compareSchema: _left, ...adapter }: PlatformApi = testClient({ fetch: () => Promise.reject(new Error("no request was expected")) }).api;
    const branch = { id: "br-pr-1", name: "preview/pr-1", parent_id: "br-main-1" } as ApiBranch;

    const err = await rejection(readSchemaDiff({ api: adapter, projectId: "calm-river-123456", branch, declaredDatabases: [] }));

    expect(err.code).toBe("CLI_USAGE");
    expect(err.message).toBe("The platform adapter has no compareSchema, which the schema diff is read through; nothing was read.");
    expect((err as Error & { hint?: string }).hint).toContain("Give the adapter a compareSchema method");
  });
});
