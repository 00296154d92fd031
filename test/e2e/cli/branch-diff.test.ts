/**
 * `svc branch diff` and `plan --markdown --schema-diff` with the real bin, against an emulator whose
 * branches have real PostgreSQL databases: a table created on a preview with psql shows in the
 * diff, an untouched preview has none, and the page of docs/previews.md shows what the command prints.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { beforeAll, describe, expect, it } from "vitest";
import { psql, requirePsql } from "../../helpers/psql.js";
import { rawUnsafe } from "../hostile-edges.js";
import { ROOT, useEmulatorProject } from "./harness.js";

beforeAll(requirePsql);
const { emu, svc } = useEmulatorProject({ emulator: { realDatabases: true }, branch: false, prepare: (dir) => writeFileSync(join(dir, "svc.ts"), "export default {};\n") });

/** Renders Markdown as GitHub does (GFM, raw HTML kept for `<details>`). */
function toHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** The section of docs/previews.md on schema diffs: its SQL, the command it runs, what it printed. */
function docsExample(): { sql: string; command: string[]; printed: string } {
  const page = readFileSync(join(ROOT, "docs", "previews.md"), "utf8");
  const section = /## Schema diff in the review\n([\s\S]*?)\n## /.exec(page)?.[1] ?? "";
  const sql = /psql "\$\(svc branch connection-string --branch preview\/pr-42\)" -c "([^"]+)"/.exec(section)?.[1] ?? "";
  const run = /```console\n\$ svc branch diff ([^\n]+)\n([\s\S]*?)```/.exec(section);
  return { sql, command: (run?.[1] ?? "").split(" "), printed: run?.[2] ?? "" };
}

/** `text` with each branch id replaced by its number in order of appearance. */
function numberedIds(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(/\bbr-[a-z0-9-]+/g, (id) => {
    if (!seen.has(id)) seen.set(id, `<branch ${seen.size + 1}>`);
    return seen.get(id) ?? id;
  });
}

async function createPreview(name: string): Promise<{ id: string; url: string }> {
  const created = await svc(["branch", "create", name, "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const url = await svc(["branch", "connection-string", "--branch", name]);
  expect(url.code, url.stderr).toBe(0);
  return { id: (JSON.parse(created.stdout) as { branchId: string }).branchId, url: url.stdout.trim() };
}

describe("svc branch diff on real PostgreSQL", () => {
  it("a preview nobody changed has no schema differences, and says so", async () => {
    const preview = await createPreview("preview/untouched");
    const main = emu().defaultBranchId;

    const text = await svc(["branch", "diff", "preview/untouched"]);
    const json = await svc(["branch", "diff", "preview/untouched", "--json"]);
    const markdown = await svc(["branch", "diff", "preview/untouched", "--markdown"]);

    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`No schema differences: preview/untouched (${preview.id}) against its parent main (${main}), database neondb.\n`);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: "branch diff", branch: { id: preview.id }, base: { id: main, parent: true }, database: "neondb", identical: true, diff: "" });
    expect(toHtml(markdown.stdout)).toContain("No schema differences.");
  }, 120_000);

  it("a table created on a preview shows in its diff against the parent, as docs/previews.md shows it; the parent is unchanged", async () => {
    const example = docsExample();
    expect(example.command[0]).toBe("preview/pr-42");
    const preview = await createPreview("preview/pr-42");
    const main = emu().defaultBranchId;
    await psql(preview.url, example.sql);

    const run = await svc(["branch", "diff", ...example.command]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("+CREATE TABLE public.notes (");
    expect(run.stdout).toContain(`--- ${main}/neondb\n+++ ${preview.id}/neondb\n`);
    // The page shows what the command printed, up to the branch ids.
    expect(numberedIds(run.stdout)).toBe(numberedIds(example.printed));
    expect(run.stderr).toContain(`Schema diff of preview/pr-42 (${preview.id}) against its parent main (${main}), database neondb: `);

    const reversed = await svc(["branch", "diff", "main", "--base", "preview/pr-42"]);
    expect(reversed.code, reversed.stderr).toBe(0);
    expect(reversed.stdout).toContain("-CREATE TABLE public.notes (");
    expect(reversed.stderr).toContain(`Schema diff of main (${main}) against preview/pr-42 (${preview.id})`);
    const parentUrl = (await svc(["branch", "connection-string", "--branch", "main"])).stdout.trim();
    expect(await psql(parentUrl, "SELECT count(*) FROM pg_tables WHERE tablename = 'notes'")).toBe("0");

    const markdown = await svc(["branch", "diff", "preview/pr-42", "--markdown"]);
    const html = toHtml(markdown.stdout);
    expect(html.match(/<details>/g)).toHaveLength(1);
    expect(/<pre><code class="language-diff">([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1]).toContain("+CREATE TABLE public.notes (");
  }, 120_000);

  it("plan --markdown --schema-diff adds the diff as a collapsible section on a preview, and says it shows none on the default branch", async () => {
    const preview = await createPreview("preview/planned");
    await psql(preview.url, "CREATE TABLE planned_table (id int)");

    const onPreview = await svc(["config", "plan", "--branch", "preview/planned", "--markdown", "--schema-diff"]);
    const onMain = await svc(["config", "plan", "--branch", "main", "--markdown", "--schema-diff"]);

    expect(onPreview.code, onPreview.stderr).toBe(0);
    const html = toHtml(onPreview.stdout);
    expect(html).toContain("<h3>svc plan: preview/planned</h3>");
    expect(html).toMatch(/<details><summary>Schema diff: \d+ added, 0 removed \(<code>preview\/planned<\/code> against its parent <code>main<\/code>, database <code>neondb<\/code>\)<\/summary>/);
    expect(html).toContain("+CREATE TABLE public.planned_table (");
    expect(onMain.code, onMain.stderr).toBe(0);
    expect(onMain.stdout).not.toContain("Schema diff");
    expect(onMain.stderr).toContain("--schema-diff: main is the default branch; the schema diff is shown on preview branches only.");
  }, 120_000);

  it("the platform's diff carries the ownership and comment statements pg_dump writes; svc branch diff leaves out every line of them", async () => {
    const commented = await createPreview("preview/commented");
    const twin = await createPreview("preview/commented-twin");
    await psql(commented.url, "CREATE TABLE commented (id int); COMMENT ON TABLE commented IS E'first line\\nsecond line'; COMMENT ON COLUMN commented.id IS 'the key'");
    await psql(twin.url, "CREATE TABLE commented (id int); COMMENT ON TABLE commented IS E'first line\\nanother second line'");
    const compare = async (branchId: string, query: string): Promise<string> => {
      const response = await fetch(`${emu().apiHost}/projects/${emu().projectId}/branches/${branchId}/compare_schema?${query}`, { headers: { authorization: `Bearer ${emu().apiKey}` } });
      return ((await response.json()) as { diff: string }).diff;
    };

    const raw = await compare(commented.id, "db_name=neondb");
    expect(raw).toContain("+ALTER TABLE public.commented OWNER TO neondb_owner;\n");
    expect(raw).toContain("+COMMENT ON TABLE public.commented IS 'first line\n+second line';\n");
    expect(raw).toContain("+COMMENT ON COLUMN public.commented.id IS 'the key';\n");
    const run = await svc(["branch", "diff", "preview/commented"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("+CREATE TABLE public.commented (\n+    id integer\n+);\n");
    expect(run.stdout).not.toMatch(/OWNER TO|COMMENT ON|second line|the key/);

    // The twin differs from it only in comments: the platform's diff shows them, svc sees no difference.
    expect(await compare(twin.id, `db_name=neondb&base_branch_id=${commented.id}`)).toContain("+another second line';");
    const twins = await svc(["branch", "diff", "preview/commented-twin", "--base", "preview/commented"]);
    expect(twins.code, twins.stderr).toBe(0);
    expect(twins.stdout).toBe(`No schema differences: preview/commented-twin (${twin.id}) against preview/commented (${commented.id}), database neondb.\n`);
  }, 120_000);

  it("names the branch or database that is missing, exit 1", async () => {
    await createPreview("preview/errors");
    const main = emu().defaultBranchId;
    const rows: { args: string[]; error: string; hint?: string }[] = [
      { args: ["branch", "diff", "main"], error: `error CLI_USAGE: Branch main (${main}) has no parent branch to compare its schema with.`, hint: "hint: Name the branch to compare it with: --base BRANCH." },
      { args: ["branch", "diff", "preview/errors", "--database", "nope"], error: "error CLI_USAGE: Branch preview/errors has no database nope (it has: neondb).", hint: "hint: Pick one of its databases with --database NAME." },
      { args: ["branch", "diff", "preview/nope"], error: 'error PLATFORM_BRANCH_NOT_FOUND: Branch "preview/nope" does not exist' },
      { args: ["branch", "diff", "preview/errors", "--base", "nope"], error: 'error PLATFORM_BRANCH_NOT_FOUND: Branch "nope" does not exist' },
      { args: ["config", "plan", "--schema-diff"], error: "error CLI_USAGE: --schema-diff adds a section to the --markdown plan of one branch.", hint: "hint: Add --markdown (without --branches), or drop --schema-diff." },
    ];
    for (const row of rows) {
      const run = await svc(row.args);
      expect(run.code, `${row.args.join(" ")}\n${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(row.error);
      if (row.hint !== undefined) expect(run.stderr).toContain(row.hint);
    }
  }, 120_000);

  it("hostile: a table and a column named with control characters, a fence and </details> are escaped in the text and stay inside the Markdown code block", async () => {
    const preview = await createPreview("preview/hostile");
    await psql(preview.url, 'CREATE TABLE "x```\n</details>\u001b[2J\u202e" ("col\r\u0085```" int)');

    const text = await svc(["branch", "diff", "preview/hostile"]);
    const markdown = await svc(["branch", "diff", "preview/hostile", "--markdown"]);

    expect(text.code, text.stderr).toBe(0);
    expect(rawUnsafe(text.stdout)).toBeNull();
    expect(text.stdout).toContain('+CREATE TABLE public."x```');
    expect(text.stdout).toContain('+</details>\\u001b[2J\\u202e" (');
    expect(text.stdout).toContain('+    "col\\u000d\\u0085```" integer');
    expect(rawUnsafe(markdown.stdout)).toBeNull();
    const html = toHtml(markdown.stdout);
    expect(html.match(/<details>/g)).toHaveLength(1);
    expect(html.match(/<\/details>/g)).toHaveLength(1);
    const code = /<pre><code class="language-diff">([\s\S]*?)<\/code><\/pre>\s*<\/details>\s*$/.exec(html)?.[1] ?? "";
    expect(code).toContain("+&lt;/details&gt;\\u001b[2J\\u202e&quot; (");
    expect(code).toContain("+    &quot;col\\u000d\\u0085```&quot; integer");
  }, 120_000);
});
